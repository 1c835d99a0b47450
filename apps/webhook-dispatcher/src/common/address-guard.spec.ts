import { assertPublicTarget, isForbiddenAddress, parseEndpointUrl, Resolver } from './address-guard';

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

describe('parseEndpointUrl', () => {
  it('accepts http and https and refuses other schemes, relative and overlong URLs', () => {
    expect(parseEndpointUrl('https://merchant.example/hooks').hostname).toBe('merchant.example');
    expect(parseEndpointUrl('http://merchant.example:8080/h').port).toBe('8080');
    expect(() => parseEndpointUrl('ftp://merchant.example/')).toThrow('url must use https or http');
    expect(() => parseEndpointUrl('/hooks')).toThrow('absolute');
    expect(() => parseEndpointUrl(`https://merchant.example/${'a'.repeat(2048)}`)).toThrow('at most 2048');
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
