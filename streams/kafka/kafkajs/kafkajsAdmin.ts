import kafkajs from 'kafkajs';
import type { Admin } from 'kafkajs';
import type { KafkaAdmin } from '../KafkaPort.ts';

// kafkajs is CommonJS: its enums are reachable through the default export only under Node's ESM loader.
const TOPIC = kafkajs.ConfigResourceTypes.TOPIC;
/** DescribeConfigs' config source of a topic-level override (DYNAMIC_TOPIC_CONFIG). */
const TOPIC_CONFIG_SOURCE = 1;

/** The port's admin client over a kafkajs one (benchmarks wrap the kafkajs admin they also use for consumer groups). */
export function kafkajsAdminPort(admin: Admin): KafkaAdmin {
  return {
    connect: () => admin.connect(),
    disconnect: () => admin.disconnect(),
    describeCluster: () => admin.describeCluster(),
    listTopics: () => admin.listTopics(),
    createTopics: ({ topics, waitForLeaders, timeout }) =>
      admin.createTopics({
        topics: topics.map((t) => ({ ...t, configEntries: t.configEntries?.map((e) => ({ ...e })) ?? [] })),
        waitForLeaders: waitForLeaders ?? false,
        ...(timeout === undefined ? {} : { timeout }),
      }),
    deleteTopics: ({ topics }) => admin.deleteTopics({ topics: [...topics] }),
    fetchTopicMetadata: ({ topics }) => admin.fetchTopicMetadata({ topics: [...topics] }),
    async describeTopicConfigs(topics) {
      const { resources } = await admin.describeConfigs({ resources: topics.map((name) => ({ type: TOPIC, name })), includeSynonyms: false });
      return resources.map((r) => ({
        topic: r.resourceName,
        entries: r.configEntries.map((e) => ({ name: e.configName, value: e.configValue, topicOverride: e.configSource === TOPIC_CONFIG_SOURCE })),
      }));
    },
    async alterTopicConfigs(topic, entries) {
      await admin.alterConfigs({ validateOnly: false, resources: [{ type: TOPIC, name: topic, configEntries: entries.map((e) => ({ ...e })) }] });
    },
    fetchTopicOffsets: (topic) => admin.fetchTopicOffsets(topic),
    fetchTopicOffsetsByTimestamp: (topic, timestampMs) => admin.fetchTopicOffsetsByTimestamp(topic, timestampMs),
    fetchOffsets: ({ groupId, topics }) => admin.fetchOffsets({ groupId, topics: [...topics] }),
    async describeGroup(groupId) {
      const { groups } = await admin.describeGroups([groupId]);
      const group = groups[0];
      if (group === undefined) throw new Error(`describeGroups answered nothing for group ${groupId}`);
      return {
        groupId,
        state: group.state,
        members: group.members.map((m) => ({
          memberId: m.memberId,
          clientId: m.clientId,
          // Empty while the group rebalances (no assignment has been synced).
          assignment: (m.memberAssignment.length === 0 ? undefined : kafkajs.AssignerProtocol.MemberAssignment.decode(m.memberAssignment)?.assignment) ?? {},
        })),
      };
    },
    deleteGroups: async (groupIds) => void (await admin.deleteGroups([...groupIds])),
    setGroupOffsets: ({ groupId, topic, partitions }) => admin.setOffsets({ groupId, topic, partitions: partitions.map((p) => ({ ...p })) }),
  };
}
