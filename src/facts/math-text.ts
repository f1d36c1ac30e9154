/**
 * Math as plain text, so the grounding check reads the same claim whether it is written in
 * LaTeX or in Unicode: `$H_{0_1}$` and "H0₁" are both "H01", `$\alpha^2$` and "α²" both "α2".
 * Only text between single dollar signs is read as LaTeX (a price "$5" has no closing one).
 */

const SUBSCRIPTS = '₀₁₂₃₄₅₆₇₈₉';
const SUPERSCRIPTS = '⁰¹²³⁴⁵⁶⁷⁸⁹';
const GREEK: Record<string, string> = {
  alpha: 'α', beta: 'β', gamma: 'γ', delta: 'δ', epsilon: 'ε', varepsilon: 'ε', zeta: 'ζ', eta: 'η', theta: 'θ', kappa: 'κ', lambda: 'λ', mu: 'μ', nu: 'ν', xi: 'ξ', pi: 'π', rho: 'ρ', sigma: 'σ', tau: 'τ', phi: 'φ', varphi: 'φ', chi: 'χ', psi: 'ψ', omega: 'ω',
  Gamma: 'Γ', Delta: 'Δ', Theta: 'Θ', Lambda: 'Λ', Xi: 'Ξ', Pi: 'Π', Sigma: 'Σ', Phi: 'Φ', Psi: 'Ψ', Omega: 'Ω',
};
/** `$…$` on one line, no space just inside either sign. */
const INLINE_MATH = /\$(?=[^\s$])([^$\n]*?[^\s$\\])\$/g;
const SCRIPT_DIGIT = /[₀-₉⁰-⁹]/g;

export function plainMath(text: string): string {
  let plain = text;
  if (plain.includes('$')) plain = plain.replace(INLINE_MATH, (_whole, math: string) => latexToPlain(math));
  return plain.replace(SCRIPT_DIGIT, scriptDigit);
}

/**
 * The text with its inline math left out: notation a page writes its own way (`$W_t = \lambda^tW_0$`
 * where the source defines $W_0$ and $\lambda$ apart) names no one, so no name is read from it.
 */
export function withoutMath(text: string): string {
  return text.includes('$') ? text.replace(INLINE_MATH, ' ') : text;
}

function scriptDigit(char: string): string {
  const sub = SUBSCRIPTS.indexOf(char);
  return String(sub >= 0 ? sub : SUPERSCRIPTS.indexOf(char));
}

/** `H_{0_1}` → `H01`, `\alpha^2` → `α2`, `\mathrm{d}x` → `dx`. */
function latexToPlain(math: string): string {
  return math
    .replace(/\\([A-Za-z]+)\s*/g, (whole, name: string) => GREEK[name] ?? (/^(?:math[a-z]+|text[a-z]*|operatorname|boldsymbol|hat|bar|tilde|vec|left|right)$/.test(name) ? '' : whole))
    .replace(/[_^{}]/g, '');
}
