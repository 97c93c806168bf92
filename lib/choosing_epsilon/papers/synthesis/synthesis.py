"""One release through every method: what a reader's own script imports to choose ε for a
column, gathered from the synthesis's four modules:

- ``release``: the column (``column_from_file``, or the demo's ``survey_column``), its public
  facts (``survey_for``) and what the reader states about it (``release_inputs``);
- ``methods``: each method with its premise (``METHODS``), the table of ε (``methods_for``) and
  the interval it leaves (``feasibility``);
- ``scale``: every ε and deployment on one risk scale (``risk_scale``);
- ``answer``: the answer, computed once (``Answer``), and the noise for a stated risk
  (``noise_for_risk_table``).

Reading the notebook's parameters and writing its results is the harness's
(``papers.synthesis.run``)."""

from __future__ import annotations

from choosing_epsilon.papers.synthesis.answer import *  # noqa: F403
from choosing_epsilon.papers.synthesis.methods import *  # noqa: F403
from choosing_epsilon.papers.synthesis.release import *  # noqa: F403
from choosing_epsilon.papers.synthesis.scale import *  # noqa: F403
