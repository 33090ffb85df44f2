import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { stem } from '../../src/text/stem.js';

describe('stems', () => {
  test('the forms of one word meet', () => {
    for (const family of [['route', 'routes', 'router', 'routing'], ['extractors', 'extraction'], ['validate', 'validates', 'validator', 'validating', 'validation'], ['template', 'templates', 'templating'], ['create', 'creation'], ['verify', 'verified', 'verifies', 'verification'], ['modified', 'modification']])
      assert.equal(new Set(family.map(stem)).size, 1, family.join(' '));
  });

  test('an `at` of the word itself stays', () => {
    for (const [a, b] of [['format', 'formats'], ['float', 'floating'], ['repeat', 'repeated'], ['state', 'states']]) assert.equal(stem(a), stem(b), `${a} ${b}`);
    assert.notEqual(stem('format'), stem('form'));
    assert.notEqual(stem('floating'), stem('flow'));
  });
});
