import kafkajs from 'kafkajs';

/**
 * The one place code added since the Kafka port was planned (issue 27) names the Kafka
 * client: its types and the values it needs, so the port replaces one module, not each user.
 */
export type { Admin, Kafka, SASLOptions } from 'kafkajs';

// kafkajs is CommonJS: its enums are reachable through the default export only under Node's ESM loader.
export const TOPIC_CONFIG_RESOURCE = kafkajs.ConfigResourceTypes.TOPIC;
