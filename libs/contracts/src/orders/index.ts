export * from './order-fields';
export * from './order-commands.v1';
export * from './order-events.v1';
export * from './order-events.v2';
export * from './clock-ticked.v1';
export * from './settlement-commands.v1';
export * from './settlement-commands.v2';
