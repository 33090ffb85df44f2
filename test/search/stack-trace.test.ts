import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CodeIndex } from '../../src/service/code-index.js';
import { committedRepo, runCli, tempDir, TEST_CACHE } from '../helpers.js';

process.env.OCRAG_CACHE ??= TEST_CACHE;

/** A small shop: the files a trace passes through, and neighbours that share its words (coupons, rates, totals, prices). */
const FILES: Record<string, string> = {
  'app/api/routes.py': `from app.billing.service import BillingService\n\nservice = BillingService()\n\n\ndef create_invoice(request):\n    """POST /invoices: bills the order in the request body."""\n    order = request.order()\n    if not order.lines:\n        return {"error": "empty order"}, 400\n    invoice = service.issue(order)\n    return invoice.to_json(), 201\n`,
  'app/billing/service.py': `from app.billing.pricing import compute_total\nfrom app.billing.invoice import Invoice\n\n\nclass BillingService:\n    """Issues invoices for orders and records them."""\n\n    def __init__(self):\n        self.issued = []\n\n    def issue(self, order):\n        total = compute_total(order.lines, order.coupon)\n        invoice = Invoice(order.id, total)\n        self.issued.append(invoice)\n        return invoice\n`,
  'app/billing/pricing.py': `from decimal import Decimal\nfrom app.billing.discounts import apply_discount\n\n\ndef compute_total(lines, coupon):\n    """Sum of line prices, then the coupon's discount."""\n    subtotal = sum((Decimal(l.price) * l.quantity for l in lines), Decimal(0))\n    return apply_discount(subtotal, coupon)\n`,
  'app/billing/discounts.py': `from decimal import Decimal\nfrom app.billing.rates import RATES\n\nNO_DISCOUNT = Decimal(0)\n\n\ndef apply_discount(subtotal, coupon):\n    """Takes the coupon's rate off the subtotal; no coupon, no discount."""\n    if coupon is None:\n        return subtotal\n    rate = RATES[coupon.code]\n    off = (subtotal * rate).quantize(Decimal("0.01"))\n    return subtotal - off\n`,
  'app/billing/rates.py': `from decimal import Decimal\n\n# Discount rate per coupon code: a KeyError for an unknown code is the caller's to handle.\nRATES = {\n    "WELCOME10": Decimal("0.10"),\n    "VIP20": Decimal("0.20"),\n}\n\n\ndef rate_for(code):\n    """The discount rate of a coupon code, or None for an unknown or expired coupon."""\n    return RATES.get(code)\n`,
  'app/billing/coupons.py': `class Coupon:\n    """A coupon code the customer typed at checkout, with its discount rate and expiry."""\n\n    def __init__(self, code, expires):\n        self.code = code.upper()\n        self.expires = expires\n\n    def expired(self, today):\n        return today > self.expires\n`,
  'app/billing/invoice.py': `class Invoice:\n    def __init__(self, order_id, total):\n        self.order_id = order_id\n        self.total = total\n\n    def to_json(self):\n        return {"order": self.order_id, "total": str(self.total)}\n`,
  'web/cart/line-total.js': `// The price of one cart line: unit price times quantity, in cents.\nexport function lineTotal(line, catalog) {\n  const item = catalog.find(line.sku);\n  return item.price.times(line.quantity);\n}\n`,
  'web/cart/checkout.js': `import { lineTotal } from './line-total.js';\n\n// The cart's total price at checkout, after every line's price is known.\nexport function cartTotal(cart, catalog) {\n  const totals = cart.lines.map((line) => lineTotal(line, catalog));\n  return totals.reduce((a, b) => a.plus(b));\n}\n\nexport function checkout(req, res) {\n  res.json({ total: cartTotal(req.body.cart, req.app.locals.catalog).toString() });\n}\n`,
  'web/cart/catalog.js': `// Items by SKU with their price; find returns undefined for an unknown SKU.\nexport class Catalog {\n  constructor(items) {\n    this.items = new Map(items.map((i) => [i.sku, i]));\n  }\n  find(sku) {\n    return this.items.get(sku);\n  }\n  price(sku) {\n    return this.items.get(sku)?.price;\n  }\n}\n`,
  'web/server.js': `import express from 'express';\nimport { checkout } from './cart/checkout.js';\n\nconst app = express();\napp.post('/checkout', express.json(), checkout);\napp.listen(3000);\n`,
};

const PYTHON_TRACE = `Internal Server Error on POST /invoices, started after the spring promotion went live:

Traceback (most recent call last):
  File "/home/dev/.venv/lib/python3.11/site-packages/flask/app.py", line 1484, in full_dispatch_request
    rv = self.dispatch_request()
  File "/home/dev/.venv/lib/python3.11/site-packages/flask/app.py", line 1469, in dispatch_request
    return self.ensure_sync(self.view_functions[rule.endpoint])(**view_args)
  File "/home/dev/shop/app/api/routes.py", line 11, in create_invoice
    invoice = service.issue(order)
  File "/home/dev/shop/app/billing/service.py", line 12, in issue
    total = compute_total(order.lines, order.coupon)
  File "/home/dev/shop/app/billing/pricing.py", line 8, in compute_total
    return apply_discount(subtotal, coupon)
  File "/home/dev/shop/app/billing/discounts.py", line 11, in apply_discount
    rate = RATES[coupon.code]
  File "/usr/lib/python3.11/collections/__init__.py", line 1121, in __getitem__
    raise KeyError(key)
KeyError: 'SPRING24'

The coupon code exists in the admin panel, and the rate lookup works for WELCOME10. Expected the invoice total
with the coupon discount applied, or at least a clear error about the coupon rate.`;

const JS_TRACE = `TypeError: Cannot read properties of undefined (reading 'price')
    at Decimal.times (/srv/shop/node_modules/decimal.js/decimal.js:1820:11)
    at lineTotal (/srv/shop/web/cart/line-total.js:4:21)
    at Array.map (<anonymous>)
    at cartTotal (/srv/shop/web/cart/checkout.js:5:33)
    at checkout (/srv/shop/web/cart/checkout.js:10:27)
    at Layer.handle [as handle_request] (/srv/shop/node_modules/express/lib/router/layer.js:95:5)
    at next (/srv/shop/node_modules/express/lib/router/route.js:149:13)
    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)`;

/** Bundled or minified code names no function: the frames' paths alone say where it failed. */
const ANONYMOUS_TRACE = `Uncaught TypeError: Cannot read properties of undefined (reading 'price')
    at /srv/shop/node_modules/decimal.js/decimal.js:1820:11
    at /srv/shop/web/cart/line-total.js:4:21
    at Array.map (<anonymous>)
    at /srv/shop/web/cart/checkout.js:5:33
    at /srv/shop/web/cart/checkout.js:10:27
    at /srv/shop/node_modules/express/lib/router/layer.js:95:5
    at node:internal/process/task_queues:95:5`;

describe('a pasted stack trace', () => {
  let index: CodeIndex;
  let repo: string;

  before(async () => {
    repo = committedRepo(path.join(tempDir('trace'), 'shop'), FILES, 'shop');
    index = await CodeIndex.open(repo);
    await index.index();
  });
  after(() => index.close());

  const search = (query: string) => index.search(query, { k: 10, update: false, committedOnly: true });

  test('a Python traceback ranks the file of its innermost user frame first, past the stdlib frame below it', async () => {
    const results = await search(PYTHON_TRACE);
    assert.equal(results[0]?.path, 'app/billing/discounts.py', results.map((r) => r.path).join(', '));
    assert.match(results[0]!.text, /def apply_discount/);
    // Without the frames' paths, the top frame's function still outweighs the functions of the frames below it.
    const byNames = await index.search(PYTHON_TRACE, { k: 10, update: false, committedOnly: true, ranking: { queryPaths: false } });
    assert.equal(byNames[0]?.path, 'app/billing/discounts.py', byNames.map((r) => r.path).join(', '));
  });

  test('a Node trace ranks the file of its first user frame first, past node_modules and node:internal', async () => {
    const results = await search(JS_TRACE);
    assert.equal(results[0]?.path, 'web/cart/line-total.js', results.map((r) => r.path).join(', '));
  });

  test('a 10,000-character paste through the CLI answers in JSON, the file of its top frame first, well within a generous bound', async () => {
    const story = 'Steps: open the shop, add two items to the cart, type the coupon from the newsletter and press pay. ';
    const paste = `${PYTHON_TRACE}\n\n${story.repeat(100)}`.slice(0, 10_000);
    const t0 = performance.now();
    const run = await runCli(['search', paste, '--json', '--no-update'], repo);
    const seconds = (performance.now() - t0) / 1000;
    assert.equal(run.code, 0, run.stderr);
    const results = JSON.parse(run.stdout) as { path: string }[];
    assert.equal(results[0]?.path, 'app/billing/discounts.py', results.map((r) => r.path).join(', '));
    // Measured ~0.5 s on a 14,000-chunk index; the bound only catches a pathological slowdown on a loaded machine.
    assert.ok(seconds < 30, `${seconds.toFixed(1)} s`);
  });

  test('a trace of anonymous frames ranks the file its first user frame names first', async () => {
    const results = await search(ANONYMOUS_TRACE);
    assert.equal(results[0]?.path, 'web/cart/line-total.js', results.map((r) => r.path).join(', '));
  });
});
