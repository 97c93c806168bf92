"""Each paper's forensics: how its printed numbers were obtained and where they slip, one module
per source (mirroring ``plots``), used only by that source's notebook."""
