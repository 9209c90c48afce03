import assert from 'node:assert/strict';
import { descriptorFileName, suggestedFileName } from '../../../../src/core/files/fdrefPaths';
import { languageInfo } from '../../../../src/core/files/languages';
import { extractRefs } from '../../../../src/core/refs/extract';

describe("a ref's fence language", () => {
  it('gives plain text for a fence named like any Object.prototype property, never an undefined extension', () => {
    const names = [...Object.getOwnPropertyNames(Object.prototype), 'prototype', 'hasOwn'];
    assert.ok(names.includes('constructor') && names.includes('__proto__'));
    for (const name of names) {
      const ref = extractRefs(`<ref id="x">\n\`\`\`${name}\ncode\n\`\`\`\n</ref>`).refs[0];
      assert.equal(ref?.language, name);
      assert.deepEqual(languageInfo(name), { extension: 'txt' }, name);
      assert.deepEqual(languageInfo(name.toUpperCase()), { extension: 'txt' }, name);
      assert.equal(descriptorFileName('ref:x', name), 'x.txt', name);
      assert.equal(suggestedFileName('ref:x@2', name), 'x.txt', name);
    }
  });

  it('still knows the languages it lists, whatever their case', () => {
    assert.deepEqual(languageInfo(' Python '), { extension: 'py', languageId: 'python' });
    assert.deepEqual(languageInfo('c++'), { extension: 'cpp', languageId: 'cpp' });
  });
});
