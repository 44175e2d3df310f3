'use strict';

// Prices are kept in integer cents so sums never drift.

/** Total of the cart lines, in cents. */
function subtotal(lines) {
  return lines.reduce((sum, line) => sum + line.unitCents * line.quantity, 0);
}

/** Discount for a percentage off, rounded to the nearest cent. */
function discount(cents, percent) {
  return Math.floor((cents * percent) / 100);
}

/** What the customer pays after the discount. */
function total(lines, percent) {
  const cents = subtotal(lines);
  return cents - discount(cents, percent);
}

function formatCents(cents) {
  return `$${(cents / 100).toFixed(2)}`;
}

module.exports = { subtotal, discount, total, formatCents };
