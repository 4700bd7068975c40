export * from './signature.js';
