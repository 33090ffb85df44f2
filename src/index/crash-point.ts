// The crash points live in util/ so the store adapter can have one between its two writes; index/ and share/ keep this name.
export { checkpoint, crashPoint } from '../util/crash-point.js';
