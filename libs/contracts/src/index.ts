export * from './topics';
export * from './events';
export * from './commands';
export * from './accounts';
export * from './webhooks';
export * from './sandbox';
