/**
 * Money in the en-UK accounting style (spec 000 §9): Intl's en-GB locale with
 * `currencySign: 'accounting'`, so negative amounts show in brackets, e.g. '(£1,234.50)'.
 */
export function formatCurrency(amount: number, currency: string): string {
  if (!Number.isFinite(amount)) return '';
  return new Intl.NumberFormat('en-GB', {
    style: 'currency',
    currency,
    currencySign: 'accounting',
  }).format(amount);
}
