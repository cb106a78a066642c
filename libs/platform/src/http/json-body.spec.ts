import { ApiError } from '../errors/api-error';
import { assertNoDuplicateKeys } from './json-body';

const codeOf = (text: string): number | undefined => {
  try {
    assertNoDuplicateKeys(text, JSON.parse(text));
    return undefined;
  } catch (error) {
    return (error as ApiError).code;
  }
};

describe('duplicate keys in a JSON body', () => {
  it.each([
    '{"a":1,"a":2}',
    '{"symbol":"BTCUSDT", "side":"BUY", "symbol" : "ETHUSDT"}',
    '{"outer":{"x":1,"x":1}}',
    '[{"a":1},{"b":2,"b":3}]',
    '{"a\\"":1,"a\\u0022":2}',
  ])('refuses %s with -1101', (text) => {
    expect(codeOf(text)).toBe(-1101);
  });

  it.each([
    '{"a":1,"b":2}',
    '{"a":"x\\":y","b":"\\\\"}',
    '{"a":{"a":1},"b":[{"a":1},{"a":2}]}',
    '{"list":["a:","b"], "":1}',
    '"just a string"',
    '[]',
    '{}',
  ])('accepts %s', (text) => {
    expect(codeOf(text)).toBeUndefined();
  });
});
