import { describe, expect, it } from 'vitest';
import { publicApiBase, PublicUrlError, serviceRoot } from '../../src/core/public-url.js';

describe('publicApiBase: --public-url as operators type it', () => {
  it.each([
    ['https://api.example.se', 'https://api.example.se/api/public/v1'],
    ['https://api.example.se/', 'https://api.example.se/api/public/v1'],
    ['http://127.0.0.1:8080', 'http://127.0.0.1:8080/api/public/v1'],
    ['http://127.0.0.1:8080/', 'http://127.0.0.1:8080/api/public/v1'],
    ['https://example.se/bolag', 'https://example.se/bolag/api/public/v1'],
    ['https://example.se/bolag/', 'https://example.se/bolag/api/public/v1'],
    ['https://example.se/bolag/api/public/v1', 'https://example.se/bolag/api/public/v1'],
    ['https://example.se/bolag/api/public/v1/', 'https://example.se/bolag/api/public/v1'],
    ['http://127.0.0.1:8080/api/public/v1', 'http://127.0.0.1:8080/api/public/v1'],
    ['HTTPS://API.Example.SE:443/', 'https://api.example.se/api/public/v1'],
    ['http://[::1]:9000', 'http://[::1]:9000/api/public/v1'],
    ['  https://api.example.se  ', 'https://api.example.se/api/public/v1'],
  ])('%s → %s', (typed, base) => {
    expect(publicApiBase(typed)).toBe(base);
  });

  it('is idempotent: a base URL it made stays as it is', () => {
    for (const typed of ['https://example.se/bolag', 'http://127.0.0.1:8080']) expect(publicApiBase(publicApiBase(typed))).toBe(publicApiBase(typed));
  });

  it.each([
    ['api.example.se', /not an absolute URL/],
    ['/bolag', /not an absolute URL/],
    ['', /not an absolute URL/],
    ['ftp://example.se', /not an http or https URL/],
    ['file:///srv/bolag', /not an http or https URL/],
    ['https://example.se/bolag?x=1', /query string/],
    ['https://example.se/bolag?', /query string/],
    ['https://example.se/bolag#top', /fragment/],
    ['https://example.se/#', /fragment/],
    ['https://user:pw@example.se', /user name or password/],
  ])('refuses %j', (typed, message) => {
    expect(() => publicApiBase(typed)).toThrow(PublicUrlError);
    expect(() => publicApiBase(typed)).toThrow(message);
  });

  it('never shows the password it refuses, whatever else is wrong and however it is written', () => {
    for (const typed of ['https://user:hunter2@example.se', 'https://user:hunter2@example.se/x?y=1', 'https://user:hunter2@example.se/#a', 'https://user:hünter2 x@example.se']) {
      let message = '';
      try {
        publicApiBase(typed);
      } catch (e) {
        message = (e as Error).message;
      }
      expect(message, typed).toMatch(/:\*\*\*@example\.se/);
      expect(message, typed).not.toMatch(/hunter2|h%C3%BCnter2|hünter2/);
    }
  });

  it('serviceRoot strips the version prefix: where /docs lives', () => {
    expect(serviceRoot('https://example.se/bolag/api/public/v1')).toBe('https://example.se/bolag');
    expect(serviceRoot('http://127.0.0.1:8080/api/public/v1')).toBe('http://127.0.0.1:8080');
  });
});
