import { LookupAddress } from 'node:dns';
import {
  AddressRefusedError,
  assertPublicTarget,
  forbiddenLiteral,
  guardedLookup,
  isForbiddenAddress,
  parseOutboundUrl,
  privateUrlsAllowed,
  Resolver,
} from './outbound-guard';

const resolvesTo =
  (...addresses: string[]): Resolver =>
  async () =>
    addresses;

describe('isForbiddenAddress', () => {
  it('refuses loopback, private, link-local, metadata and reserved addresses', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.100.100.200',
      '0.0.0.0',
      '224.0.0.1',
      '::1',
      '::',
      'fe80::1',
      'fd00:ec2::254',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
    ]) {
      expect([address, isForbiddenAddress(address)]).toEqual([address, true]);
    }
  });

  it('lets public addresses through', () => {
    for (const address of ['93.184.215.14', '8.8.8.8', '172.32.0.1', '2606:4700::1111', '::ffff:8.8.8.8']) {
      expect([address, isForbiddenAddress(address)]).toEqual([address, false]);
    }
  });
});

describe('parseOutboundUrl', () => {
  it('accepts http and https and refuses other schemes, relative and overlong URLs', () => {
    expect(parseOutboundUrl('https://merchant.example/hooks').hostname).toBe('merchant.example');
    expect(parseOutboundUrl('http://merchant.example:8080/h').port).toBe('8080');
    expect(() => parseOutboundUrl('ftp://merchant.example/')).toThrow('url must use https or http');
    expect(() => parseOutboundUrl('/hooks')).toThrow('absolute');
    expect(() => parseOutboundUrl(`https://merchant.example/${'a'.repeat(2048)}`)).toThrow('at most 2048');
  });
});

describe('assertPublicTarget', () => {
  it('refuses a host that resolves to a private address, naming it', async () => {
    await expect(
      assertPublicTarget('https://internal.example/h', false, resolvesTo('10.0.0.7')),
    ).rejects.toThrow('resolves to 10.0.0.7');
  });

  it('refuses when any one of several addresses is private', async () => {
    await expect(
      assertPublicTarget('https://mixed.example/h', false, resolvesTo('93.184.215.14', '127.0.0.1')),
    ).rejects.toThrow('127.0.0.1');
  });

  it('refuses IP literals without asking DNS, including bracketed IPv6', async () => {
    const never: Resolver = async () => {
      throw new Error('DNS must not be asked');
    };
    await expect(assertPublicTarget('http://169.254.169.254/latest/meta-data', false, never)).rejects.toThrow(
      '169.254.169.254',
    );
    await expect(assertPublicTarget('http://[::1]:8080/', false, never)).rejects.toThrow('::1');
  });

  it('refuses a host that does not resolve', async () => {
    const nxdomain: Resolver = async () => {
      throw new Error('ENOTFOUND');
    };
    await expect(assertPublicTarget('https://nowhere.invalid/', false, nxdomain)).rejects.toThrow(
      'does not resolve',
    );
  });

  it('accepts public hosts, and anything when private URLs are allowed', async () => {
    await expect(
      assertPublicTarget('https://public.example/', false, resolvesTo('93.184.215.14')),
    ).resolves.toBeInstanceOf(URL);
    await expect(assertPublicTarget('http://127.0.0.1:9/', true)).resolves.toBeInstanceOf(URL);
  });

  it('refuses localhost through the real resolver', async () => {
    await expect(assertPublicTarget('http://localhost:3000/', false)).rejects.toThrow(
      /resolves to (127\.0\.0\.1|::1)/,
    );
  });
});

describe('forbiddenLiteral', () => {
  it('names a forbidden IP literal host, and nothing for public literals or host names', () => {
    expect(forbiddenLiteral(new URL('http://169.254.169.254/latest/meta-data'))).toBe('169.254.169.254');
    expect(forbiddenLiteral(new URL('http://[fd00:ec2::254]/'))).toBe('fd00:ec2::254');
    expect(forbiddenLiteral(new URL('https://93.184.215.14/'))).toBeUndefined();
    expect(forbiddenLiteral(new URL('https://localhost/'))).toBeUndefined();
  });
});

describe('guardedLookup', () => {
  /** What a socket would be told: the addresses, or the error that stops it connecting. */
  const lookUp = (resolve: Resolver, all: boolean) =>
    new Promise<{ error: Error | null; addresses: LookupAddress[] | string }>((done) =>
      guardedLookup(resolve)('merchant.example', { all }, (error, addresses) => done({ error, addresses })),
    );

  it('hands a public answer to the socket, in both lookup shapes', async () => {
    expect(await lookUp(resolvesTo('93.184.215.14', '2606:4700::1111'), true)).toEqual({
      error: null,
      addresses: [
        { address: '93.184.215.14', family: 4 },
        { address: '2606:4700::1111', family: 6 },
      ],
    });
    expect((await lookUp(resolvesTo('93.184.215.14'), false)).addresses).toBe('93.184.215.14');
  });

  it('fails the lookup with AddressRefusedError when any address is forbidden, so nothing connects', async () => {
    const { error } = await lookUp(resolvesTo('93.184.215.14', '169.254.169.254'), true);
    expect(error).toBeInstanceOf(AddressRefusedError);
    expect(error?.message).toBe('refused: 169.254.169.254 is a loopback, private, link-local or reserved address');
  });

  it('fails on an empty or failed answer', async () => {
    expect((await lookUp(resolvesTo(), true)).error?.message).toContain('ENOTFOUND');
    const failing: Resolver = async () => {
      throw new Error('SERVFAIL');
    };
    expect((await lookUp(failing, true)).error?.message).toBe('SERVFAIL');
  });

  it('refuses localhost through the system lookup', async () => {
    const error = await new Promise<Error | null>((done) =>
      guardedLookup()('localhost', { all: true }, (failure) => done(failure)),
    );
    expect(error).toBeInstanceOf(AddressRefusedError);
  });
});

describe('privateUrlsAllowed', () => {
  it('reads auto as allowed except in production', () => {
    expect(privateUrlsAllowed('auto', 'development')).toBe(true);
    expect(privateUrlsAllowed('auto', 'test')).toBe(true);
    expect(privateUrlsAllowed('auto', 'production')).toBe(false);
    expect(privateUrlsAllowed('true', 'production')).toBe(true);
    expect(privateUrlsAllowed('false', 'development')).toBe(false);
  });
});
