export * from './config/app-catalog';
export * from './config/config';
export * from './config/common-config';
