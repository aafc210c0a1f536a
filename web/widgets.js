// widgets.js — embeddable custom elements for course pages. One tag loads them all:
//
//   <script type="module" src="path/to/web/widgets.js"></script>
//   <qif-channel preset="password-iterations" measures="mutualInformation,minEntropyLeakage"></qif-channel>
//   <qif-mechanism graph="clique" n="6" epsilon="ln 2" mechanism="randomizedResponse"></qif-mechanism>
//   <qif-refinement a="[[1,0],[0,1]]" b="[[0.5,0.5],[0.5,0.5]]"></qif-refinement>
//   <qif-program measures="posteriorBayesVulnerability"><script type="text/qif">secret guess in bits(3) … observe out</script></qif-program>
//   <qif-composition events="laplace epsilon=0.1 x10; gaussian sigma=1 x100" delta="1e-5"></qif-composition>
//
// This file is the entry: it defines the elements, one per file in widgets/ (channel.js,
// mechanism.js, refinement.js, program.js, composition.js), on their base class (widgets/base.js). Each element declares its
// attributes once, in a table (static attributes, see widgets/attributes.js) that drives what it
// observes, how it reads each attribute, the messages about a wrong one and the check that
// docs/widgets.md documents them all. Attributes are untrusted text read with the page's one
// grammar (input/): numbers as on the page (`ln 2 / 5` is (ln 2)/5, `log` is refused), matrices as
// JSON or `a b; c d`; a bad value is reported inside the widget, all of them at once — nothing is
// thrown into the page. dist/qif-widgets.js (scripts/widgets-bundle.mjs) is this module and its
// engine in one classic script, for pages on file:// or on another origin.
//
// Each widget reflects its state on the host element as data-state="loading|ready|error" and
// fires a `qif-update` event (detail: the computed values) after every successful computation.

import { QifChannel } from './widgets/channel.js';
import { QifMechanism } from './widgets/mechanism.js';
import { QifRefinement } from './widgets/refinement.js';
import { QifProgram } from './widgets/program.js';
import { QifComposition } from './widgets/composition.js';
import { MAX_SIDE, parseMatrix, parseVector } from './widgets/attributes.js';

export { QifChannel, QifMechanism, QifRefinement, QifProgram, QifComposition, MAX_SIDE, parseMatrix, parseVector };

for (const [name, cls] of [['qif-channel', QifChannel], ['qif-mechanism', QifMechanism], ['qif-refinement', QifRefinement], ['qif-program', QifProgram], ['qif-composition', QifComposition]]) {
  // A page may include the script twice (two course fragments): define once.
  if (!customElements.get(name)) customElements.define(name, cls);
}
