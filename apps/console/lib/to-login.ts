// One way to the login page, taken once: a sign-out and the 401s of queries still in flight
// must not start competing navigations.
let leaving = false

/** Goes to /login; with `returnHere`, back to this page after signing in. */
export function goToLogin({ returnHere = false } = {}) {
  if (leaving || typeof window === 'undefined' || window.location.pathname.startsWith('/login')) return
  leaving = true
  const next = window.location.pathname + window.location.search
  window.location.assign(returnHere ? `/login?next=${encodeURIComponent(next)}` : '/login')
}
