import { describe, expect, it } from 'vitest';
import { createJfrTextFold, jfrNote, threadPool } from './cassandraJfr.ts';

const sample = (thread: string, top: string) => `jdk.ExecutionSample {
  startTime = 20:50:19.890
  sampledThread = "${thread}" (javaThreadId = 46)
  state = "STATE_RUNNABLE"
  stackTrace = [
    ${top} line: 125
    org.apache.cassandra.cql3.Lists$Value.fromSerialized(ByteBuffer, ListType) line: 231
    ...
  ]
}
`;

describe('cassandraJfr', () => {
  it('names a thread pool without its instance number', () => {
    expect(['ReadStage-3', 'CompactionExecutor:2', 'Native-Transport-Requests-12', 'Attach Listener', 'epollEventLoopGroup-5-1'].map(threadPool)).toEqual([
      'ReadStage',
      'CompactionExecutor',
      'Native-Transport-Requests',
      'Attach Listener',
      'epollEventLoopGroup-5',
    ]);
  });

  it('folds `jfr print` text into shares by thread pool and by top frame', () => {
    const fold = createJfrTextFold();
    const text = [
      sample('ReadStage-1', 'org.apache.cassandra.db.ReadCommand.executeLocally(ReadExecutionController)'),
      sample('ReadStage-2', 'org.apache.cassandra.db.ReadCommand.executeLocally(ReadExecutionController)'),
      sample('MutationStage-1', 'org.apache.cassandra.db.Mutation.apply()'),
      sample('Native-Transport-Requests-4', 'org.apache.cassandra.db.ReadCommand.executeLocally(ReadExecutionController)'),
    ].join('\n');
    for (const line of text.split('\n')) fold.line(line);
    const p = fold.profile();
    expect(p).toEqual({
      samples: 4,
      byThreadPool: { ReadStage: 0.5, MutationStage: 0.25, 'Native-Transport-Requests': 0.25 },
      topFrames: [
        { frame: 'org.apache.cassandra.db.ReadCommand.executeLocally', share: 0.75 },
        { frame: 'org.apache.cassandra.db.Mutation.apply', share: 0.25 },
      ],
    });
    expect(jfrNote(p)).toBe('Cassandra JFR (4 samples): ReadStage 50%, MutationStage 25%, Native-Transport-Requests 25%; top frames ReadCommand.executeLocally 75.0%, Mutation.apply 25.0%');
  });

  it('an empty recording folds to no samples', () => {
    expect(createJfrTextFold().profile()).toEqual({ samples: 0, byThreadPool: {}, topFrames: [] });
  });
});
