// The settings a surface reads from the environment (colour, debug stacks, PATH, a restarted child's environment),
// read where every setting is: src/config/environment.ts.
export { childEnv, colorRefused, debugStacks, environment, pathVariable } from '../config/environment.js';
