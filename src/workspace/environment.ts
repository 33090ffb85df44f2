// The settings a surface reads from the environment (colour, debug stacks, PATH, a child's environment: another
// program's or a restarted ocrag's, the cache folder), read where every setting is: src/config/environment.ts.
export { cacheRoot, childEnv, colorRefused, debugStacks, environment, ownChildEnv, pathVariable } from '../config/environment.js';
