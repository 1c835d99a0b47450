// The local stack as a library: `npm start`, `npm test` and the e2e tier run the same launcher.
export * from './app-launcher';
export * from './app-node-flags';
export * from './app-scheduling';
export * from './app-priority';
export * from './app-cgroup';
export * from './infrastructure';
export * from './sandbox-credentials';
export * from './app-schemas';
export * from './app-supervisor';
export * from './thread-stat';
