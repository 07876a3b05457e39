import type { EdgeLink, Neighbour } from '../../reads/index.ts';

/**
 * A link's fields as JSON: `time` a decimal string (int64), `data` base64
 * when the link carries a payload; every other field as it is.
 */
export function linkJson(link: EdgeLink | Neighbour): Record<string, unknown> {
  const { time, ...fields } = link;
  const data = 'data' in link && link.data instanceof Uint8Array ? { data: Buffer.from(link.data).toString('base64') } : {};
  return { ...fields, time: String(time), ...data };
}
