import { parseBasicAuthorization } from './basic-credentials';

const b64 = (text: string): string => Buffer.from(text).toString('base64');

describe('parseBasicAuthorization (RFC 7617)', () => {
  it('reads user-id and password', () => {
    expect(parseBasicAuthorization(`Basic ${b64('alice:secret')}`)).toEqual({ username: 'alice', password: 'secret' });
  });

  it('splits at the first colon: the password keeps later colons', () => {
    expect(parseBasicAuthorization(`Basic ${b64('alice:pass:word')}`)).toEqual({
      username: 'alice',
      password: 'pass:word',
    });
  });

  it('takes the scheme case-insensitively', () => {
    expect(parseBasicAuthorization(`bAsIc ${b64('a:b')}`)).toEqual({ username: 'a', password: 'b' });
  });

  it('accepts unpadded base64 and trailing spaces', () => {
    expect(parseBasicAuthorization(`Basic ${b64('ab:c').replace(/=+$/, '')}  `)).toEqual({
      username: 'ab',
      password: 'c',
    });
  });

  it.each([
    ['no header', undefined],
    ['another scheme', `Bearer ${b64('a:b')}`],
    ['a scheme containing Basic', `XBasic ${b64('a:b')}`],
    ['a scheme starting with Basic', `Basically ${b64('a:b')}`],
    ['text after the credentials', `Basic ${b64('a:b')} extra`],
    ['a second token', `Basic ${b64('a:b')} ${b64('c:d')}`],
    ['no token', 'Basic '],
    ['non-base64 characters', 'Basic !!!'],
    ['no colon', `Basic ${b64('nocolon')}`],
    ['an empty user-id', `Basic ${b64(':secret')}`],
    ['an empty password', `Basic ${b64('alice:')}`],
    ['a control character', `Basic ${b64('al\nice:secret')}`],
    ['bytes that are not UTF-8', `Basic ${Buffer.from([0x61, 0x3a, 0xff, 0xfe]).toString('base64')}`],
  ])('refuses %s', (_label, header) => {
    expect(parseBasicAuthorization(header)).toBeNull();
  });
});
