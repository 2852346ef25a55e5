// Whether recharts animates: one rule for every chart in the console.

/** Animations make charts flicker in screenshots and slow tests; browsers driven by tools say so. */
export function chartAnimationEnabled(): boolean {
  if (process.env.NODE_ENV === 'test') return false
  return typeof navigator === 'undefined' ? false : !navigator.webdriver
}
