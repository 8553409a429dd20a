"""`tools/run_with.py`: a script run through it imports the packages from the tree it names,
not from this checkout (the venv's editable install would otherwise win)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_named_tree_is_imported_not_this_checkout(tmp_path: Path) -> None:
    tree = tmp_path / "old"
    (tree / "bot").mkdir(parents=True)
    (tree / "bot" / "__init__.py").write_text("WHICH = 'old tree'\n")
    script = tmp_path / "which.py"
    script.write_text("import bot, sys\nprint(bot.WHICH, bot.__file__, sys.argv[1:])\n")
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "run_with.py"), str(tree),
                           str(script), "--repeat", "2"], capture_output=True, text=True,
                          check=True, cwd=ROOT)
    assert done.stdout.split()[:2] == ["old", "tree"]
    assert str(tree / "bot" / "__init__.py") in done.stdout
    assert "['--repeat', '2']" in done.stdout
