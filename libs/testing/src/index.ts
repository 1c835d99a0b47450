export * from './env';
export * from './wait-for';
export * from './test-database';
export * from './webhook-receiver';
export * from './command-replies';
export * from './document-schemas';
