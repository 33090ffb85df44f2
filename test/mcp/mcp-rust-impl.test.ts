// find_symbol and search ranking read a Rust impl the same way (text/breadcrumb.ts): an impl's methods are found by
// the method's name, qualified by the type or the trait, and the type's own definition comes before its impls.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { findSymbol as findSymbolIn, search, serveFixtureWith } from './mcp-helpers.js';

/** Beside the fixture's calculator: a trait impl longer than one chunk, so each method is a chunk of its own. */
const EXPRESSION_RS = `//! Expressions kept as tokens, to be evaluated any number of times.
use crate::{evaluate, tokenize, Token};

/// An arithmetic expression read once and kept as tokens.
pub struct Expression {
    tokens: Vec<Token>,
}

/// What can be asked of an arithmetic expression.
pub trait Calculate {
    fn value(&self) -> f64;
    fn count_operators(&self) -> usize;
    fn describe_tokens(&self) -> Vec<String>;
    fn largest_number(&self) -> Option<f64>;
}

impl Expression {
    pub fn new(text: &str) -> Expression {
        Expression { tokens: tokenize(text) }
    }
}

/// Calculations over the tokens, in the order they were read.
impl Calculate for Expression {
    /// The value of the expression, multiplication before addition.
    fn value(&self) -> f64 {
        let tokens = &self.tokens;
        evaluate(tokens)
    }

    /// How many operators the expression holds: plus, minus, star and slash each count once.
    fn count_operators(&self) -> usize {
        let mut plus = 0;
        let mut minus = 0;
        let mut star = 0;
        let mut slash = 0;
        for token in &self.tokens {
            match token {
                Token::Plus => {
                    plus += 1;
                }
                Token::Minus => {
                    minus += 1;
                }
                Token::Star => {
                    star += 1;
                }
                Token::Slash => {
                    slash += 1;
                }
                Token::Number(_) => {}
            }
        }
        plus + minus + star + slash
    }

    /// Each token written out in words, one string per token.
    fn describe_tokens(&self) -> Vec<String> {
        let mut words = Vec::new();
        for token in &self.tokens {
            let word = match token {
                Token::Number(n) => {
                    format!("the number {}", n)
                }
                Token::Plus => {
                    String::from("plus")
                }
                Token::Minus => {
                    String::from("minus")
                }
                Token::Star => {
                    String::from("times")
                }
                Token::Slash => {
                    String::from("divided by")
                }
            };
            words.push(word);
        }
        if words.is_empty() {
            words.push(String::from("nothing"));
        }
        words
    }

    /// The largest number written in the expression, if it has any.
    fn largest_number(&self) -> Option<f64> {
        let mut largest: Option<f64> = None;
        for token in &self.tokens {
            if let Token::Number(n) = token {
                largest = match largest {
                    Some(m) if m >= *n => {
                        Some(m)
                    }
                    _ => {
                        Some(*n)
                    }
                };
            }
        }
        largest
    }
}
`;

describe('a Rust impl method, by find_symbol and by search ranking', () => {
  let client: Client;

  before(async () => {
    client = await serveFixtureWith({ 'crates/calc/src/expression.rs': EXPRESSION_RS });
  });

  after(async () => {
    await client?.close();
  });

  const findSymbol = (name: string) => findSymbolIn(client, name);

  test('the method is found by its name, qualified by its type or its trait, and search ranks the same chunk first', async () => {
    const method = 'impl Calculate for Expression > fn count_operators';
    for (const name of ['count_operators', 'Expression::count_operators', 'Calculate::count_operators', 'Expression.count_operators']) {
      const found = await findSymbol(name);
      assert.equal(found[0]?.symbol, method, `find_symbol ${name}: ${found.map((f) => f.symbol).join(' | ')}`);
      assert.equal(found[0].match, 'exact');
    }
    const ranked = await search(client, 'count_operators', { k: 5 });
    assert.equal(ranked[0].symbol, method, ranked.map((r) => r.symbol).join(' | '));
    const [symbol] = await findSymbol('count_operators');
    assert.deepEqual([ranked[0].path, ranked[0].startLine], [symbol.path, symbol.startLine]);
  });

  test('the impl names its type, not its trait: the type\'s definition comes first, its impls follow', async () => {
    const found = await findSymbol('Expression');
    assert.equal(found[0]?.symbol, 'struct Expression', found.map((f) => f.symbol).join(' | '));
    assert.ok(found.some((f) => f.symbol === 'impl Calculate for Expression'), 'the impl is listed under its type');
    assert.ok(!(await findSymbol('Calculate')).some((f) => f.symbol.startsWith('impl ')), 'and not under its trait');
    const ranked = await search(client, 'Expression', { k: 5 });
    assert.equal(ranked[0].symbol, 'struct Expression', ranked.map((r) => r.symbol).join(' | '));
  });
});
