'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { subtotal, discount, total, formatCents } = require('../src/price.js');

const cart = [
  { unitCents: 1999, quantity: 2 },
  { unitCents: 250, quantity: 3 },
];

test('subtotal adds every line', () => {
  assert.equal(subtotal(cart), 4748);
});

test('discount rounds to the nearest cent', () => {
  assert.equal(discount(4748, 15), 712); // 712.2
  assert.equal(discount(1999, 25), 500); // 499.75
});

test('total subtracts the discount', () => {
  assert.equal(total(cart, 25), 3561); // 4748 - 1187
});

test('formatCents prints dollars', () => {
  assert.equal(formatCents(3561), '$35.61');
});
