"""The figure kit every notebook shares: ``style`` (the one style, and the check that a figure keeps
to it), ``figures`` (showing and saving a figure or a table with fixed metadata) and ``scrubber``
(the site's ε scrubbers: a figure as frames over one parameter). Each notebook's own figures and
scrubbers are in its paper's folder, ``papers/<notebook>/figures.py`` and ``scrubbers.py``."""
