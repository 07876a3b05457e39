import { describe, expect, it } from 'vitest';
import { nativePortOptions, sharedNativePort } from './nativePort.ts';

describe('sharedNativePort', () => {
  it('is the port every contact point names', () => {
    expect(sharedNativePort(['127.0.0.1:19242', '127.0.0.2:19242', '127.0.0.3:19242'])).toBe(19242);
    expect(nativePortOptions(['a:9142', 'b:9142'])).toEqual({ protocolOptions: { port: 9142 } });
  });

  it('is undefined when no contact point names one (the driver default applies)', () => {
    expect(sharedNativePort(['cass-1', 'cass-2'])).toBeUndefined();
    expect(nativePortOptions(['cass-1'])).toEqual({});
  });

  it('refuses contact points on different ports, naming the field and the ports', () => {
    expect(() => sharedNativePort(['a:9042', 'b:9043'])).toThrow(/contactPoints: .*9042, 9043/);
  });
});
