import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import { bearer, createTestApp, type TestApp } from '../support/test-app';
import { PASSWORD } from '../support/world';

const CONFIGURED = {
  SUPPORT_EMAIL: 'help@district.example',
  TERMS_URL: 'https://district.example/terms',
  PRIVACY_URL: 'https://district.example/privacy',
};

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('GET /api/public-config (issue 36)', () => {
  it('unconfigured: every setting null, to anyone, without a token', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/public-config' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ supportEmail: null, termsUrl: null, privacyUrl: null });
    expect(response.headers['cache-control']).toBe('no-store');
    const token = await t.login(t.world.users.owner.email, PASSWORD);
    const signedIn = await t.app.inject({ method: 'GET', url: '/api/public-config', headers: bearer(token) });
    expect(signedIn.json()).toEqual(response.json());
  });

  it('configured: what the environment says at start, as loadConfig reads it', async () => {
    const { publicConfig } = loadConfig(CONFIGURED);
    const app = await buildApp({ db: t.db, publicConfig });
    try {
      const response = await app.inject({ method: 'GET', url: '/api/public-config' });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        supportEmail: 'help@district.example',
        termsUrl: 'https://district.example/terms',
        privacyUrl: 'https://district.example/privacy',
      });
    } finally {
      await app.close();
    }
  });

  it('the API document lists it as public, with a description', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    const operation = doc.paths['/api/public-config'].get;
    expect(operation.operationId).toBe('getPublicConfig');
    expect(operation.security).toEqual([]);
    expect(operation.description).toContain('SUPPORT_EMAIL');
  });
});

describe('the settings as loadConfig reads them', () => {
  it('unset or blank: null; set: trimmed', () => {
    expect(loadConfig({}).publicConfig).toEqual({ supportEmail: null, termsUrl: null, privacyUrl: null });
    expect(loadConfig({ SUPPORT_EMAIL: '  ', TERMS_URL: '', PRIVACY_URL: ' ' }).publicConfig).toEqual({
      supportEmail: null,
      termsUrl: null,
      privacyUrl: null,
    });
    expect(loadConfig({ SUPPORT_EMAIL: ' help@district.example ' }).publicConfig.supportEmail).toBe(
      'help@district.example',
    );
  });

  it('refuses at start what would make a broken or unsafe link', () => {
    expect(() => loadConfig({ SUPPORT_EMAIL: 'help' })).toThrow('SUPPORT_EMAIL must be an email address');
    expect(() => loadConfig({ SUPPORT_EMAIL: 'help@district.example?cc=all@district.example' })).toThrow(
      'SUPPORT_EMAIL',
    );
    expect(() => loadConfig({ TERMS_URL: 'javascript:alert(1)' })).toThrow(
      'TERMS_URL must be an http:// or https:// address',
    );
    expect(() => loadConfig({ PRIVACY_URL: 'district.example/privacy' })).toThrow('PRIVACY_URL');
    expect(() => loadConfig({ PRIVACY_URL: 'ftp://district.example/privacy' })).toThrow('PRIVACY_URL');
  });
});
