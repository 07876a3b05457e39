/** The processors' names, which name their consumer groups (a leaf module: `lag` lists the groups without loading the processors). */
export const FAN_OUT_PROCESSOR_NAME = 'fan-out';
export const NODE_REMOVAL_CASCADE_NAME = 'node-removal-cascade';
