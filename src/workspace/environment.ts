// The settings a surface reads from the environment (colour, debug stacks, PATH, a restarted child's environment,
// the cache folder), read where every setting is: src/config/environment.ts.
export { cacheRoot, childEnv, colorRefused, debugStacks, environment, pathVariable } from '../config/environment.js';
