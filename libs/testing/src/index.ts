export * from './env';
export * from './wait-for';
export * from './test-database';
export * from './webhook-receiver';
