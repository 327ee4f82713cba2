import { describe, expect, it } from 'vitest';
import { CSRF_GET_MESSAGE, CSRF_POST_MESSAGE, csrfRefusal } from './csrfRefusal.js';

describe('csrfRefusal', () => {
  it.each([
    ['no content type (curl -d sends a form type; fetch with a string body sends text/plain)', {}],
    ['a form encoding', { 'content-type': 'application/x-www-form-urlencoded' }],
    ['a multipart form', { 'content-type': 'multipart/form-data; boundary=x' }],
    ['text/plain, in any case, with parameters', { 'content-type': ' Text/Plain ; charset=utf-8' }],
    ['an empty preflight header', { 'content-type': 'text/plain', 'apollo-require-preflight': '' }],
  ])('refuses a POST with %s, saying which header to send', (_label, headers) => {
    const refusal = csrfRefusal('POST', headers);
    expect(refusal?.code).toBe('BAD_REQUEST');
    expect(refusal?.message).toBe(CSRF_POST_MESSAGE);
    expect(refusal?.extensions).toEqual({ code: 'BAD_REQUEST', http: { status: 400 } });
  });

  it('refuses a GET without a preflight header, saying which one', () => {
    expect(csrfRefusal('GET', {})?.message).toBe(CSRF_GET_MESSAGE);
    expect(csrfRefusal('GET', { accept: 'application/json' })?.message).toBe(CSRF_GET_MESSAGE);
    expect(CSRF_GET_MESSAGE).toContain('apollo-require-preflight: true');
    expect(CSRF_POST_MESSAGE).toContain('content-type: application/json');
  });

  it.each([
    ['POST', { 'content-type': 'application/json' }],
    ['POST', { 'content-type': 'application/graphql-response+json; charset=utf-8' }],
    ['POST', { 'content-type': 'text/plain', 'apollo-require-preflight': 'true' }],
    ['POST', { 'x-apollo-operation-name': 'Roots' }],
    ['GET', { 'apollo-require-preflight': 'true' }],
    ['GET', { 'x-apollo-operation-name': 'Roots' }],
    // What Apollo lets through too: a browser asks before it sends a type it cannot parse.
    ['POST', { 'content-type': '' }],
  ])('lets a %s with %j through', (method, headers) => {
    expect(csrfRefusal(method, headers)).toBeNull();
  });
});
