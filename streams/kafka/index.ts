export type * from './KafkaPort.ts';
