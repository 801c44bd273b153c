import { parseTokenFile, tokenFileAuthenticator, TokenFileError } from '../../../src/auth/authn/token-file';

describe('--token-auth-file', () => {
  it('reads upstream CSV: token,user,uid,"group1,group2"', () => {
    const tokens = parseTokenFile('# comment\nt1,alice,uid-1,"dev,ops"\nt2,bob,uid-2\n\n"t,3","carol ""c""",uid-3,admins\n');
    expect(tokens.get('t1')).toEqual({ username: 'alice', uid: 'uid-1', groups: ['dev', 'ops'] });
    expect(tokens.get('t2')).toEqual({ username: 'bob', uid: 'uid-2', groups: [] });
    expect(tokens.get('t,3')).toEqual({ username: 'carol "c"', uid: 'uid-3', groups: ['admins'] });
    const auth = tokenFileAuthenticator(tokens);
    expect(auth.authenticate({ bearerToken: 't1' })).toEqual({ user: { username: 'alice', uid: 'uid-1', groups: ['dev', 'ops'] } });
    expect(auth.authenticate({ bearerToken: 'nope' })).toBeUndefined();
  });

  it.each([
    ['t1,alice\n', 'line 1: needs at least three columns'],
    ['t1,a,1\nt1,b,2\n', 'line 2: duplicate token'],
    ['"t1,a,1\n', 'line 1: unterminated quoted field'],
  ])('rejects %j', (text, message) => {
    expect(() => parseTokenFile(text)).toThrow(TokenFileError);
    expect(() => parseTokenFile(text)).toThrow(message);
  });
});
