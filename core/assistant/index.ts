export * from './assistant-settings.js';
