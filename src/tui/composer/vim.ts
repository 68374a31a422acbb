/**
 * Vim mode of the composer: the modules are in vim/ (keys, motions, text objects, operators,
 * registers, Visual mode, Insert sessions, `.`); this is their public face for the reducer.
 */
export * from './vim/index.js';
