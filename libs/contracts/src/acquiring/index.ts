export * from './acquiring.views';
export * from './acquiring.payloads';
export * from './acquiring.commands';
export * from './card-rules';
export * from './settled-totals';
