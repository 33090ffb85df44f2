import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { analyzeQuery } from '../../src/search/query.js';
import { spelledNameKeys } from '../../src/search/spelled-names.js';
import { CodeIndex } from '../../src/service/code-index.js';
import { committedRepo, tempDir, TEST_CACHE } from '../helpers.js';

process.env.OCRAG_CACHE ??= TEST_CACHE;

/**
 * A JSON library: the class a question spells in words (`JSON element` → JsonElement), a writer whose comment
 * says the question's words, and names two files define (`ValidationError`, `JsonWriter`).
 */
const FILES: Record<string, string> = {
  'src/main/java/json/JsonElement.java': `package json;\n\n/** A node of a parsed document. */\npublic abstract class JsonElement {\n  public boolean isJsonArray() {\n    return this instanceof JsonArray;\n  }\n\n  public boolean isJsonObject() {\n    return this instanceof JsonObject;\n  }\n\n  public JsonArray getAsJsonArray() {\n    return (JsonArray) this;\n  }\n}\n`,
  'src/main/java/json/JsonArray.java': `package json;\n\nimport java.util.ArrayList;\nimport java.util.List;\n\npublic final class JsonArray extends JsonElement {\n  private final List<JsonElement> items = new ArrayList<>();\n\n  public void add(JsonElement item) {\n    items.add(item);\n  }\n}\n`,
  'src/main/java/json/JsonObject.java': `package json;\n\nimport java.util.LinkedHashMap;\nimport java.util.Map;\n\npublic final class JsonObject extends JsonElement {\n  private final Map<String, JsonElement> members = new LinkedHashMap<>();\n\n  public void add(String name, JsonElement value) {\n    members.put(name, value);\n  }\n}\n`,
  'src/main/java/json/TreeWriter.java': `package json;\n\n/** Writes a tree out, walking its element hierarchy. */\npublic final class TreeWriter {\n  private final StringBuilder out = new StringBuilder();\n\n  public void write(JsonElement element) {\n    out.append(element.toString());\n  }\n}\n`,
  // Two modules define ValidationError, neither in a file named after it: no evidence for either.
  'src/main/java/json/check/Errors.java': `package json.check;\n\n/** A document that breaks a schema rule. */\nfinal class ValidationError extends RuntimeException {\n  ValidationError(String message) {\n    super(message);\n  }\n}\n`,
  'src/main/java/json/legacy/Errors.java': `package json.legacy;\n\n/** The old name of a schema failure. */\nfinal class ValidationError extends Exception {\n  ValidationError(String message) {\n    super(message);\n  }\n}\n`,
  // JsonWriter is defined twice too, once in its own file: that file is about it.
  'src/main/java/json/stream/JsonWriter.java': `package json.stream;\n\n/** Writes tokens to a stream, one value at a time. */\npublic final class JsonWriter {\n  public void value(String text) {}\n}\n`,
  'src/main/java/json/Printer.java': `package json;\n\n/** Prints documents, streaming them out token by token. */\npublic final class Printer {\n  /** The writer a printer streams into. */\n  interface JsonWriter {\n    void value(String text);\n  }\n}\n`,
  'src/main/java/json/check/Validator.java': `package json.check;\n\n/** Checks a document against a schema and reports each validation error it finds. */\npublic final class Validator {\n  public void check(Object document) {\n    if (document == null) throw new ValidationError("validation error: empty document");\n  }\n}\n`,
};

describe('names spelled as words', () => {
  let index: CodeIndex;
  const search = (query: string, spelledNames = true) => index.search(query, { k: 10, update: false, committedOnly: true, ranking: { spelledNames } });
  /** A file's best score as a share of the top result's. */
  const score = (results: { path: string; score: number }[], file: string) => results.find((r) => r.path === file)?.score ?? 0;
  const standing = (results: { path: string; score: number }[], file: string) => score(results, file) / results[0]!.score;

  before(async () => {
    index = await CodeIndex.open(committedRepo(path.join(tempDir('spelled'), 'json'), FILES, 'json'));
    await index.index();
  });
  after(() => index.close());

  test('a query spells names as runs of two or three content words, the last also singular', () => {
    const keys = spelledNameKeys('how type adapter factories are registered');
    for (const key of ['typeadapter', 'adapterfactories', 'adapterfactory', 'typeadapterfactory']) assert.ok(keys.includes(key), key);
    // A stop word or punctuation ends a run; a hyphen does not (`content-type`).
    assert.deepEqual(spelledNameKeys('JSON object with named fields'), ['jsonobject', 'namedfields', 'namedfield']);
    assert.deepEqual(spelledNameKeys('errors, handlers'), []);
    assert.ok(spelledNameKeys('content-type formatting').includes('contenttype'));
    // A bare name or a pasted report asks otherwise.
    assert.deepEqual(analyzeQuery('JsonElement').spelledNames, []);
  });

  test('the file defining the spelled name ranks first, above prose that says the same words', async () => {
    const query = 'JSON element tree model';
    const list = (results: { path: string }[]) => results.map((r) => r.path).join(', ');
    const on = await search(query);
    const off = await search(query, false);
    assert.equal(on[0]!.path, 'src/main/java/json/JsonElement.java', list(on));
    // Without the signal the writer's comment, which says every word, ranks first.
    assert.equal(off[0]!.path, 'src/main/java/json/TreeWriter.java', list(off));
  });

  test('a name several files define counts only for a file named after it', async () => {
    const errors = 'validation error reported by the schema check';
    const on = await search(errors);
    const off = await search(errors, false);
    for (const file of ['src/main/java/json/check/Errors.java', 'src/main/java/json/legacy/Errors.java'])
      assert.equal(standing(on, file).toFixed(6), standing(off, file).toFixed(6), file);
    // JsonWriter's own file gains, the file with the other definition does not (its score moves by under 1 %).
    const writer = 'streaming JSON writer for tokens';
    const [withNames, without] = [await search(writer), await search(writer, false)];
    const gain = (file: string) => score(withNames, file) / score(without, file);
    assert.ok(gain('src/main/java/json/stream/JsonWriter.java') > 1.05, String(gain('src/main/java/json/stream/JsonWriter.java')));
    assert.ok(Math.abs(gain('src/main/java/json/Printer.java') - 1) < 0.01, String(gain('src/main/java/json/Printer.java')));
  });
});
