// The system's reduced-motion setting, for animations driven from script
// (CSS animations follow the media query in party.css).

const query = typeof matchMedia === "function" ? matchMedia("(prefers-reduced-motion: reduce)") : null;

export function reducedMotion() {
  return Boolean(query?.matches);
}

// "smooth" unless the person asked for less motion.
export function scrollBehavior() {
  return reducedMotion() ? "auto" : "smooth";
}
