import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { describeModel } from '../../src/embed/index.js';
import { layoutTag, readModelLayout } from '../../src/embed/models/model-layout.js';
import { MAX_TOKENS } from '../../src/embed/runtime/text-limits.js';
import { ModelUnavailableError } from '../../src/util/errors.js';
import { makeFixtureRepo, runCli } from '../helpers.js';
import { freshCacheWithDefaultModel, tempDir } from './helpers.js';
import { assertClose, expectedVector, TINY_DIM, withEmbedder, writeTinyModel, type TinyModelOptions } from './tiny-models.js';

const QWEN3_QUERY = 'Instruct: Given a code search query, retrieve relevant code\nQuery: ';

let counter = 0;
/** A made-up tiny model (plumbing only, see tiny-models.ts) in a folder of its own. */
function tinyModel(options: TinyModelOptions = {}, name = `tiny-${++counter}`): string {
  return writeTinyModel(path.join(tempDir('layout'), name), options);
}

describe('model layout read from a folder (pure, no model loaded)', () => {
  test('a folder without sentence-transformers files: mean pooling, no prompts, the tokenizer\'s length', () => {
    const layout = readModelLayout(tinyModel({ modelMaxLength: 384 }));
    assert.equal(layout.pooling, 'mean');
    assert.equal(layout.poolingSource, 'default');
    assert.equal(layout.normalize, false);
    assert.deepEqual(layout.prompts, { query: '', document: '', source: 'none' });
    assert.equal(layout.maxLength, 384);
    assert.equal(layout.maxLengthSource, 'tokenizer_config.json');
    assert.equal(layoutTag(layout), '');
  });

  test('pooling comes from modules.json → its Pooling folder; a Normalize module is recorded', () => {
    const cases: Array<[flag: string, mode: string]> = [
      ['pooling_mode_cls_token', 'cls'],
      ['pooling_mode_mean_tokens', 'mean'],
      ['pooling_mode_mean_sqrt_len_tokens', 'mean'],
      ['pooling_mode_lasttoken', 'lasttoken'],
      ['pooling_mode_max_tokens', 'max'],
    ];
    for (const [flag, mode] of cases) {
      const layout = readModelLayout(tinyModel({ poolingFlags: [flag], normalizeModule: true }));
      assert.equal(layout.pooling, mode, flag);
      assert.equal(layout.poolingSource, '1_Pooling/config.json');
      assert.equal(layout.normalize, true);
      assert.deepEqual(layout.ignoredModules, []);
    }
    assert.equal(readModelLayout(tinyModel({ poolingFlags: ['pooling_mode_cls_token'] })).normalize, false);
  });

  test('a pooling ocrag cannot reproduce is refused in one line naming the folder (exit code 5)', () => {
    const refusals: Array<[TinyModelOptions, RegExp]> = [
      [{ poolingFlags: ['pooling_mode_weightedmean_tokens'] }, /sets pooling_mode_weightedmean_tokens; ocrag pools by exactly one of cls, mean, lasttoken or max$/],
      [{ poolingFlags: ['pooling_mode_cls_token', 'pooling_mode_mean_tokens'] }, /sets pooling_mode_cls_token \+ pooling_mode_mean_tokens;/],
      [{ poolingFlags: [] }, /sets no pooling mode;/],
    ];
    for (const [options, message] of refusals) {
      const dir = tinyModel(options);
      assert.throws(() => readModelLayout(dir), (err: Error) => {
        assert.ok(err instanceof ModelUnavailableError);
        assert.equal(err.kind, 'model');
        assert.ok(err.message.startsWith(`model folder ${dir}: 1_Pooling/config.json `), err.message);
        assert.match(err.message, message);
        assert.ok(!err.message.includes('\n'));
        return true;
      });
    }
    const missing = tinyModel({ poolingFlags: ['pooling_mode_cls_token'] });
    fs.rmSync(path.join(missing, '1_Pooling'), { recursive: true });
    assert.throws(() => readModelLayout(missing), /modules\.json lists a Pooling module but 1_Pooling\/config\.json is missing/);
  });

  test('modules ocrag does not run (a Dense projection) are listed, not silently dropped', () => {
    const dir = tinyModel({ poolingFlags: ['pooling_mode_mean_tokens'] });
    const modules = JSON.parse(fs.readFileSync(path.join(dir, 'modules.json'), 'utf8'));
    modules.push({ idx: 2, name: '2', path: '2_Dense', type: 'sentence_transformers.models.Dense' });
    fs.writeFileSync(path.join(dir, 'modules.json'), JSON.stringify(modules));
    assert.deepEqual(readModelLayout(dir).ignoredModules, ['Dense']);
  });

  test('prompts from config_sentence_transformers.json: query, document or passage, default_prompt_name', () => {
    const prompts = (stConfig: Record<string, unknown>) => readModelLayout(tinyModel({ stConfig })).prompts;
    assert.deepEqual(prompts({ prompts: { query: 'q: ', document: 'd: ' } }), { query: 'q: ', document: 'd: ', source: 'config_sentence_transformers.json' });
    assert.deepEqual(prompts({ prompts: { query: 'q: ', passage: 'p: ' } }), { query: 'q: ', document: 'p: ', source: 'config_sentence_transformers.json' });
    assert.deepEqual(prompts({ prompts: { retrieval: 'r: ' }, default_prompt_name: 'retrieval' }), { query: 'r: ', document: 'r: ', source: 'config_sentence_transformers.json' });
    assert.deepEqual(prompts({ prompts: { query: 'q: ', retrieval: 'r: ' }, default_prompt_name: 'retrieval' }), { query: 'q: ', document: 'r: ', source: 'config_sentence_transformers.json' });
  });

  test('conventions for folders that carry no prompts: e5, e5-instruct, nomic, Qwen3-Embedding, bge-m3', () => {
    const conventions: Array<[name: string, query: string, document: string, source: string]> = [
      ['intfloat/multilingual-e5-small', 'query: ', 'passage: ', 'convention:e5'],
      ['Xenova/e5-base-v2', 'query: ', 'passage: ', 'convention:e5'],
      ['intfloat/multilingual-e5-large-instruct', QWEN3_QUERY, '', 'convention:e5-instruct'],
      ['nomic-ai/nomic-embed-text-v1.5', 'search_query: ', 'search_document: ', 'convention:nomic-embed'],
      ['Qwen/Qwen3-Embedding-0.6B', QWEN3_QUERY, '', 'convention:qwen3-embedding'],
      ['BAAI/bge-m3', '', '', 'convention:bge-m3'],
      ['sentence-transformers/all-MiniLM-L6-v2', '', '', 'none'],
    ];
    for (const [name, query, document, source] of conventions) {
      assert.deepEqual(readModelLayout(tinyModel({ nameOrPath: name })).prompts, { query, document, source }, `via _name_or_path ${name}`);
    }
    // The folder's own name and ocrag's manifest name count too (ONNX copies often have neither file).
    assert.equal(readModelLayout(tinyModel({}, 'multilingual-e5-small')).prompts.query, 'query: ');
    const pulled = tinyModel();
    fs.writeFileSync(path.join(pulled, 'ocrag-model.json'), JSON.stringify({ name: 'onnx-community/Qwen3-Embedding-0.6B-ONNX', kind: 'pulled', files: {} }));
    assert.equal(readModelLayout(pulled).prompts.source, 'convention:qwen3-embedding');
    // bge-m3 embeds as before; e5's prefixes change the vectors, so they show in the id.
    assert.equal(layoutTag(readModelLayout(tinyModel({ nameOrPath: 'BAAI/bge-m3', poolingFlags: ['pooling_mode_cls_token'] }))), '+cls');
    assert.equal(layoutTag(readModelLayout(tinyModel({ nameOrPath: 'intfloat/e5-small-v2' }))), '+e5');
  });

  test('explicit files win over conventions', () => {
    const qwen = readModelLayout(tinyModel({ nameOrPath: 'Qwen/Qwen3-Embedding-0.6B', stConfig: { prompts: { query: 'Instruct: web\nQuery:', document: '' } } }));
    assert.deepEqual(qwen.prompts, { query: 'Instruct: web\nQuery:', document: '', source: 'config_sentence_transformers.json' });
    const e5 = tinyModel({ nameOrPath: 'intfloat/e5-small-v2' });
    fs.writeFileSync(path.join(e5, 'ocrag-model.json'), JSON.stringify({ name: 'mine', queryPrefix: 'Q ', documentPrefix: '' }));
    assert.deepEqual(readModelLayout(e5).prompts, { query: 'Q ', document: '', source: 'ocrag-model.json' });
    // An empty prompts object says nothing: the convention still applies.
    assert.equal(readModelLayout(tinyModel({ nameOrPath: 'intfloat/e5-small-v2', stConfig: { prompts: {} } })).prompts.query, 'query: ');
  });

  test('max length: sentence_bert_config.json, else tokenizer_config.json (int(1e30) ignored), capped by ocrag', () => {
    const length = (options: TinyModelOptions) => {
      const { maxLength, maxLengthSource } = readModelLayout(tinyModel(options));
      return [maxLength, maxLengthSource];
    };
    assert.deepEqual(length({ sentenceBertConfig: { max_seq_length: 256 }, modelMaxLength: 512 }), [256, 'sentence_bert_config.json']);
    assert.deepEqual(length({ modelMaxLength: 512 }), [512, 'tokenizer_config.json']);
    assert.deepEqual(length({ modelMaxLength: 1e30 }), [MAX_TOKENS, 'ocrag']);
    assert.deepEqual(length({ sentenceBertConfig: { max_seq_length: 32768 } }), [MAX_TOKENS, 'sentence_bert_config.json']);
    assert.deepEqual(length({ sentenceBertConfig: { max_seq_length: 'lots' }, modelMaxLength: 128 }), [128, 'tokenizer_config.json']);
  });
});

describe('made-up tiny models run through the real embedders (plumbing, not retrieval)', () => {
  before(() => {
    process.env.OCRAG_CACHE = tempDir('layout-cache'); // sidecars of the tiny models land here, not in a shared cache
  });

  const SHORT = 'alpha';
  const LONG = 'beta gamma delta alpha';

  test('CLS pooling gives the first token\'s vector, whatever the padding side', async () => {
    for (const paddingSide of ['left', 'right'] as const) {
      const dir = tinyModel({ poolingFlags: ['pooling_mode_cls_token'], paddingSide });
      const [short, long] = await withEmbedder(dir, (e) => e.embed([SHORT, LONG]));
      assertClose(short, expectedVector(SHORT, 'cls'), `cls ${paddingSide}`);
      assertClose(long, expectedVector(LONG, 'cls'), `cls ${paddingSide}`);
    }
  });

  test('last-token pooling takes the last non-padding token of each row, left or right padded', async () => {
    for (const paddingSide of ['left', 'right'] as const) {
      const dir = tinyModel({ poolingFlags: ['pooling_mode_lasttoken'], paddingSide });
      const vectors = await withEmbedder(dir, (e) => e.embed([SHORT, LONG, 'gamma delta']));
      assertClose(vectors[0], expectedVector(SHORT, 'lasttoken'), `lasttoken ${paddingSide} short`);
      assertClose(vectors[1], expectedVector(LONG, 'lasttoken'), `lasttoken ${paddingSide} long`);
      assertClose(vectors[2], expectedVector('gamma delta', 'lasttoken'), `lasttoken ${paddingSide} middle`);
    }
  });

  test('mean pooling counts real tokens only; the static fast path and the pipeline agree', async () => {
    const dir = tinyModel({ poolingFlags: ['pooling_mode_mean_tokens'], normalizeModule: true });
    const fast = await withEmbedder(dir, (e) => e.embed([SHORT, LONG]));
    const pipeline = await withEmbedder(dir, (e) => e.embed([SHORT, LONG]), 'pipeline');
    for (const vectors of [fast, pipeline]) {
      assertClose(vectors[0], expectedVector(SHORT, 'mean'), 'mean short');
      assertClose(vectors[1], expectedVector(LONG, 'mean'), 'mean long');
    }
    assert.equal((await describeModel(dir)).backend, 'static');
  });

  test('max pooling takes each dimension\'s largest value over real tokens', async () => {
    const dir = tinyModel({ poolingFlags: ['pooling_mode_max_tokens'] });
    const [short, long] = await withEmbedder(dir, (e) => e.embed([SHORT, LONG]));
    assertClose(short, expectedVector(SHORT, 'max'), 'max short');
    assertClose(long, expectedVector(LONG, 'max'), 'max long');
    assert.equal((await describeModel(dir)).backend, 'pipeline');
  });

  test('prompts reach the embedded text: e5 convention (mean), nomic convention (CLS), Qwen3 file prompt (last token)', async () => {
    const e5 = tinyModel({ nameOrPath: 'intfloat/multilingual-e5-small', poolingFlags: ['pooling_mode_mean_tokens'] });
    await withEmbedder(e5, async (e) => {
      assertClose(await e.embedQuery(LONG), expectedVector(`query: ${LONG}`, 'mean'), 'e5 query');
      assertClose((await e.embed([LONG]))[0], expectedVector(`passage: ${LONG}`, 'mean'), 'e5 document');
      assert.match(e.modelId, /@[0-9a-f]{12}\+e5$/);
    });
    const nomic = tinyModel({ nameOrPath: 'nomic-ai/nomic-embed-text-v1.5', poolingFlags: ['pooling_mode_cls_token'] });
    await withEmbedder(nomic, async (e) => {
      assertClose(await e.embedQuery(LONG), expectedVector('search_query', 'cls'), 'nomic query starts with its prefix');
      assertClose((await e.embed([LONG]))[0], expectedVector('search_document', 'cls'), 'nomic document starts with its prefix');
    });
    const qwen = tinyModel({
      nameOrPath: 'Qwen/Qwen3-Embedding-0.6B',
      poolingFlags: ['pooling_mode_lasttoken'],
      paddingSide: 'left',
      stConfig: { prompts: { query: 'Instruct: search code\nQuery:', document: '' } },
    });
    await withEmbedder(qwen, async (e) => {
      assertClose(await e.embedQuery(LONG), expectedVector(LONG, 'lasttoken'), 'qwen3 query');
      assertClose((await e.embed([`${LONG} :`]))[0], expectedVector(':', 'lasttoken'), 'qwen3 document');
    }, 'pipeline');
  });

  test('the Qwen3 convention puts its instruction before queries only (checked with mean pooling, where it shows)', async () => {
    const dir = tinyModel({ nameOrPath: 'Qwen/Qwen3-Embedding-0.6B', poolingFlags: ['pooling_mode_mean_tokens'] });
    await withEmbedder(dir, async (e) => {
      assertClose(await e.embedQuery(LONG), expectedVector(QWEN3_QUERY + LONG, 'mean'), 'qwen3 query');
      assertClose((await e.embed([LONG]))[0], expectedVector(LONG, 'mean'), 'qwen3 document');
    });
  });

  test('max length from sentence_bert_config.json cuts texts on both paths', async () => {
    const dir = tinyModel({ poolingFlags: ['pooling_mode_mean_tokens'], sentenceBertConfig: { max_seq_length: 2 } });
    const expected = expectedVector(LONG, 'mean', 2);
    assertClose((await withEmbedder(dir, (e) => e.embed([LONG])))[0], expected, 'static path cut to 2 tokens');
    assertClose((await withEmbedder(dir, (e) => e.embed([LONG]), 'pipeline'))[0], expected, 'pipeline cut to 2 tokens');
    const last = tinyModel({ poolingFlags: ['pooling_mode_lasttoken'], modelMaxLength: 3 });
    assertClose((await withEmbedder(last, (e) => e.embed([LONG])))[0], expectedVector('delta', 'lasttoken'), 'tokenizer limit 3: beta gamma delta');
  });

  test('blank texts still embed to zeros', async () => {
    const dir = tinyModel({ poolingFlags: ['pooling_mode_lasttoken'] });
    const [blank, text] = await withEmbedder(dir, (e) => e.embed(['  \n', SHORT]));
    assert.deepEqual(Array.from(blank), new Array(TINY_DIM).fill(0));
    assertClose(text, expectedVector(SHORT, 'lasttoken'), 'next to a blank');
  });

  test('model info shows pooling, normalisation, prompts and max length', async () => {
    const dir = tinyModel({ nameOrPath: 'Qwen/Qwen3-Embedding-0.6B', poolingFlags: ['pooling_mode_lasttoken'], normalizeModule: true, sentenceBertConfig: { max_seq_length: 64 } });
    const info = await describeModel(dir);
    assert.match(info.id, /@[0-9a-f]{12}\+lasttoken\+qwen3-embedding\+len64$/);
    assert.deepEqual(info.layout, {
      pooling: 'lasttoken (1_Pooling/config.json)',
      normalize: 'L2 (its Normalize module)',
      queryPrompt: QWEN3_QUERY,
      documentPrompt: '',
      promptSource: 'convention:qwen3-embedding',
      maxLength: 64,
      maxLengthSource: 'sentence_bert_config.json',
      ignoredModules: [],
    });
    const cli = await runCli(['model', 'info', '--model', dir], tempDir('outside-a-repo'));
    assert.equal(cli.code, 0, cli.stderr);
    assert.match(cli.stdout, /^pooling +lasttoken \(1_Pooling\/config\.json\)$/m);
    assert.match(cli.stdout, /^queryPrompt +"Instruct: Given a code search query, retrieve relevant code\\nQuery: "$/m);
    assert.match(cli.stdout, /^maxLength +64$/m);
  });
});

describe('a model that is not there: exit 5 with the command that fetches it (real CLI)', () => {
  let repo: string;
  let cache: string;
  const cli = (args: string[]) => runCli(args, repo, { OCRAG_CACHE: cache });

  before(async () => {
    cache = await freshCacheWithDefaultModel();
    repo = makeFixtureRepo();
  });

  const assertUnavailable = (r: { code: number; stderr: string }, hint: RegExp) => {
    assert.equal(r.code, 5, r.stderr);
    const lines = r.stderr.trim().split('\n').filter((l) => !l.includes('updating it first'));
    assert.equal(lines.length, 1, r.stderr);
    assert.match(lines[0], hint);
    assert.doesNotMatch(r.stderr, /damaged/);
  };

  test('--model someone/missing-model, before any index exists', async () => {
    for (const args of [['search', 'x'], ['index']]) {
      assertUnavailable(await cli([...args, '--model', 'someone/missing-model']), /"ocrag model pull someone\/missing-model"/);
    }
  });

  test('--model ./nope, and a folder that is incomplete', async () => {
    assertUnavailable(await cli(['search', 'x', '--model', './nope']), /model folder .*nope does not exist: .*"ocrag model pull <owner\/name>"/);
    const partial = tempDir('partial-model');
    fs.writeFileSync(path.join(partial, 'config.json'), '{}');
    assertUnavailable(await cli(['search', 'x', '--model', partial]), /is not a complete model folder: .*"ocrag model pull <owner\/name>"/);
  });

  test('a folder whose pooling ocrag cannot reproduce', async () => {
    const dir = tinyModel({ poolingFlags: ['pooling_mode_weightedmean_tokens'] });
    assertUnavailable(await cli(['search', 'x', '--model', dir]), /1_Pooling\/config\.json sets pooling_mode_weightedmean_tokens/);
  });

  test('.ocrag/config.json names a missing model after an index was built with the default one', async () => {
    const built = await cli(['index']);
    assert.equal(built.code, 0, built.stderr);
    fs.writeFileSync(path.join(repo, '.ocrag', 'config.json'), JSON.stringify({ model: 'someone/missing' }));
    for (const args of [['search', 'x'], ['search', 'x', '--no-update'], ['index']]) {
      assertUnavailable(await cli(args), /^ocrag: model "someone\/missing" not found in .*; run "ocrag model pull someone\/missing"/);
    }
    const doctor = await cli(['doctor', '--json']);
    const model = (JSON.parse(doctor.stdout) as Array<{ name: string; status: string; fix?: string }>).find((c) => c.name === 'model');
    assert.equal(model?.status, 'fail');
    assert.equal(model?.fix, 'run "ocrag model pull someone/missing"');
  });
});
