// Public surface of streams/topics: logical → real topic names and explicit topic creation.
export { topicName, repairTopicOf, dlqTopicOf, type TopicKey } from './topicName.ts';
export { topicDurability, topicSpecs, type TopicSpec } from './topicSpecs.ts';
export { topicSchemas } from './topicSchemas.ts';
export { ensureTopics, type EnsureTopicsResult, type TopicAdmin } from './ensureTopics.ts';
export { TopicError, type TopicErrorCode } from './TopicError.ts';
export { applyMinInsyncReplicas, observeTopics, topicDrift, type DriftAdmin, type ObservedTopic } from './topicDrift.ts';
