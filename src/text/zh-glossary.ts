/**
 * Software terms as Chinese developers write them, with the English words code uses for them. CC-CEDICT is a
 * general dictionary: it lacks many of these (序列化, 协程, 结构体) or lists the everyday sense first (解析 "to
 * analyze", not "parse"). An entry here comes first among a word's senses and puts the word in the default
 * model's vocabulary. Hand-written from general programming vocabulary, not from any benchmark's queries.
 * Data table: one `中文 english words` per line, `|` between senses.
 */
const TABLE = `
算法 algorithm
接口 interface|api
实现 implementation|implement
函数 function
方法 method
参数 parameter|argument
实参 argument
形参 parameter
返回值 return value
返回 return
变量 variable
常量 constant
类型 type
泛型 generic
类 class
对象 object
实例 instance
结构体 struct
枚举 enum|enumeration
特征 trait|feature
特性 trait|feature
模块 module
包 package
库 library
依赖 dependency
命名空间 namespace
作用域 scope
闭包 closure
回调 callback
钩子 hook
装饰器 decorator
注解 annotation
宏 macro
迭代器 iterator
生成器 generator
协程 coroutine
线程 thread
进程 process
异步 async|asynchronous
同步 sync|synchronous
并发 concurrency|concurrent
并行 parallel
锁 lock
互斥锁 mutex
互斥 mutex|mutual exclusion
信号量 semaphore
通道 channel
队列 queue
栈 stack
堆 heap
数组 array
列表 list
切片 slice
字典 dict|dictionary|map
映射 map|mapping
哈希 hash
哈希表 hash map
集合 set|collection
元组 tuple
字符串 string
字节 byte|bytes
缓冲区 buffer
缓冲 buffer
缓存 cache
索引 index
指针 pointer
引用 reference
借用 borrow
生命周期 lifetime|lifecycle
所有权 ownership
内存 memory
分配 allocate|allocation
释放 free|release
垃圾回收 garbage collection
序列化 serialize|serialization
反序列化 deserialize|deserialization
编码 encode|encoding
解码 decode|decoding
解析 parse|parser
解析器 parser
编译 compile
编译器 compiler
解释器 interpreter
词法 lexer|lexical
语法 syntax|grammar
抽象语法树 ast|abstract syntax tree
格式化 format|formatting
校验 validate|validation|check
验证 validate|validation|verify
断言 assert|assertion
测试 test|testing
单元测试 unit test
用例 test case
模拟 mock
夹具 fixture
基准 benchmark
调试 debug
日志 log|logging
错误 error
异常 exception|error
报错 error
恐慌 panic
重试 retry
超时 timeout
退避 backoff
指数退避 exponential backoff
限流 rate limit|throttle
节流 throttle
防抖 debounce
熔断 circuit breaker
降级 fallback|degrade
负载均衡 load balancing|load balancer
请求 request
响应 response
请求头 request header
响应头 response header
头部 header
正文 body
请求体 request body
状态码 status code
路由 route|router|routing
路由器 router
中间件 middleware
处理器 handler
处理函数 handler
控制器 controller
视图 view
模板 template
渲染 render
组件 component
服务 service
服务器 server
客户端 client
服务端 server
连接 connection|connect
连接池 connection pool
会话 session
令牌 token
鉴权 auth|authentication|authorization
认证 authentication|auth
授权 authorization
权限 permission
密码 password
加密 encrypt|encryption
解密 decrypt
签名 signature|sign
证书 certificate
跨域 cors|cross origin
套接字 socket
端口 port
协议 protocol
代理 proxy
重定向 redirect
网关 gateway
上传 upload
下载 download
流 stream
流式 streaming|stream
管道 pipe|pipeline
事件 event
事件循环 event loop
监听 listen|listener
订阅 subscribe|subscription
发布 publish
消息 message
通知 notify|notification
调度 schedule|scheduler
调度器 scheduler
定时器 timer
任务 task|job
运行时 runtime
执行器 executor
上下文 context
状态 state|status
存储 store|storage
仓库 repository|store
数据库 database
查询 query
事务 transaction
迁移 migration
模型 model
模式 schema|pattern|mode
字段 field
属性 attribute|property
键 key
值 value
键值 key value
默认值 default value
默认 default
配置 config|configuration|settings
设置 settings|set
选项 option|options
环境变量 environment variable
命令 command
命令行 command line|cli
子命令 subcommand
标志 flag
终端 terminal
输入 input
输出 output
打印 print
文件 file
目录 directory|folder
路径 path
文件系统 file system
读取 read
写入 write
加载 load|loader
保存 save
导入 import
导出 export
插件 plugin
扩展 extension|extend
注册 register|registry
挂载 mount
卸载 unmount|uninstall
安装 install
初始化 init|initialize|initialization
启动 start|startup|boot
关闭 close|shutdown
销毁 destroy
创建 create
删除 delete|remove
更新 update
修改 modify|change
替换 replace
合并 merge
拆分 split
过滤 filter
排序 sort
查找 find|lookup|search
搜索 search
匹配 match
比较 compare
转换 convert|transform
映射表 mapping table
包装 wrap|wrapper
封装 wrap|encapsulate
适配器 adapter
工厂 factory
单例 singleton
构造函数 constructor
构造 construct|build
构建 build|builder
构建器 builder
析构 drop|destructor
继承 inherit|inheritance
多态 polymorphism
重载 overload
重写 override
覆盖 override|overwrite
派生 derive
泛化 generalize
抽象 abstract
抽象类 abstract class
基类 base class
子类 subclass
父类 parent class|superclass
元数据 metadata
反射 reflection
注入 inject|injection
依赖注入 dependency injection
生命周期钩子 lifecycle hook
工具函数 utility function|helper
辅助函数 helper function
工具 util|utility|tool
辅助 helper
内部 internal
公共 public
私有 private
版本 version
兼容 compat|compatibility
兼容性 compatibility
废弃 deprecated
实验性 experimental
文档 docs|documentation
注释 comment
示例 example
类型检查 type check
类型推断 type inference
推断 infer|inference
约束 constraint|bound
泛型约束 generic bound
可选 optional
必填 required
空值 null
空 empty|null
联合类型 union type
交叉类型 intersection type
字面量 literal
正则 regex
正则表达式 regular expression|regex
通配符 wildcard|glob
递归 recursive|recursion
遍历 traverse|iterate|walk
迭代 iterate|iteration
循环 loop
分支 branch
条件 condition
提交 commit|submit
回滚 rollback
分页 pagination|paginate
批量 batch
并发数 concurrency limit
阻塞 blocking|block
非阻塞 non blocking
轮询 poll|polling
唤醒 wake|waker
休眠 sleep
信号 signal
优雅关闭 graceful shutdown
取消 cancel|cancellation
中止 abort
钩子函数 hook function
表单 form
会话管理 session management
静态文件 static files
内容协商 content negotiation
压缩 compress|compression
解压 decompress
序号 sequence number
宏展开 macro expansion
派生宏 derive macro
提取 extract
获取 get|fetch|retrieve
运行 run|running
执行 execute|run|execution
调用 call|invoke
调用者 caller
发送 send
接收 receive
打开 open
检查 check|inspect
检测 detect|detection
识别 recognize|identify
生成 generate|generator
分发 dispatch
派发 dispatch
转发 forward
广播 broadcast
聚合 aggregate
收集 collect
组合 compose|combine|composition
拼接 concat|join
嵌套 nest|nested
展开 expand
折叠 fold|collapse
等待 wait|await
完成 complete|done|finish
恢复 recover|restore|resume
重启 restart
重置 reset
刷新 refresh|flush
清理 cleanup|clean
清除 clear
跟踪 track|trace
追踪 trace|track
监控 monitor
监视 watch|monitor
观察 observe|watch
观察者 observer
访问 access|visit
访问者 visitor
命名 naming|name
重命名 rename
格式 format
策略 strategy|policy
规则 rule
提示 prompt|hint
进度 progress
进度条 progress bar
补全 completion|complete
自动补全 autocomplete|completion
持久化 persist|persistence
全局 global
局部 local
当前 current
结果 result
声明 declare|declaration
定义 define|definition
赋值 assign|assignment
表达式 expression
语句 statement
关键字 keyword
标识符 identifier
符号 symbol
操作符 operator
运算符 operator
位置 position|location
偏移 offset
偏移量 offset
长度 length
大小 size
数量 count|number
计数 count|counter
计数器 counter
范围 range|scope
边界 boundary|bound
限制 limit|restrict
自定义 custom|customize
内置 builtin
原生 native
动态 dynamic
静态 static
懒加载 lazy load
延迟 delay|lazy|latency
阈值 threshold
容器 container
节点 node
树 tree
图 graph
叶子 leaf
根 root
父节点 parent node
子节点 child node
层 layer
层级 hierarchy|level
层次 hierarchy|level
元素 element
条目 entry
记录 record|log
页面 page
窗口 window
按钮 button
处理 handle|process|handling
处理程序 handler
错误处理 error handling
拒绝 reject|deny|rejection
接受 accept
失败 fail|failure
成功 success
警告 warning|warn
标签 tag|label
分组 group|grouping
分类 category|classify
排除 exclude|exclusion
包含 include|contain
忽略 ignore
跳过 skip
工作线程 worker thread
线程池 thread pool
池 pool
后台 background
主线程 main thread
运行器 runner
插值 interpolate|interpolation
剥离 strip
截断 truncate
转义 escape
二进制 binary
文本 text
字符 character|char
换行 newline
空白 whitespace|blank
环境 environment|env
隔离 isolate|isolation
沙箱 sandbox
核心 core
共享 share|shared
应用 app|application|apply
应用程序 application|app
框架 framework
引擎 engine
驱动 driver
别名 alias
前缀 prefix
后缀 suffix
擦除 erase
特化 specialize|specialization
推导 infer|derive
检索 retrieve|lookup
分析 analyze|analysis
统计 stats|statistics
指标 metrics|metric
性能 performance
优化 optimize|optimization
快照 snapshot
覆盖率 coverage
报告 report
句柄 handle
中断 interrupt
退出 exit|quit
退出码 exit code
帮助 help
用法 usage
开关 switch|toggle
随机 random
唯一 unique
标识 id|identifier
序列 sequence
顺序 order|sequence
优先级 priority
截止时间 deadline
间隔 interval
周期 period|cycle
时钟 clock
时间戳 timestamp
日期 date
时区 timezone
持续时间 duration
订阅者 subscriber
发布者 publisher
生产者 producer
消费者 consumer
背压 backpressure
死锁 deadlock
原子 atomic
读写锁 rwlock|read write lock
条件变量 condition variable
屏障 barrier
任意 any
多个 multiple
单个 single
重连 reconnect
握手 handshake
升级 upgrade
协商 negotiate|negotiation
注册表 registry
发现 discover|discovery
转换器 converter
打包 bundle|package
部署 deploy|deployment
脚本 script
手册 manual
说明 description
描述 description|describe
摘要 summary|digest
安全 security|secure
密钥 key|secret
凭证 credentials
过期 expire|expired
失效 invalidate|expire
命中 hit
淘汰 evict|eviction
引用计数 reference count
智能指针 smart pointer
可变 mutable
不可变 immutable
只读 readonly
可见性 visibility
可空 nullable
回退 fallback
包装器 wrapper
拦截器 interceptor
拦截 intercept
过滤器 filter
链 chain
链式 chain|chained
流水线 pipeline
步骤 step
阶段 phase|stage
`;

export const ZH_GLOSSARY: ReadonlyMap<string, readonly string[]> = new Map(
  TABLE.trim()
    .split('\n')
    .map((line) => {
      const space = line.indexOf(' ');
      return [line.slice(0, space), line.slice(space + 1).split('|')] as const;
    }),
);
