"""The wheel carries the whole site: build_py copies the checkout's top-level ``templates/``
into the package (``tournament/templates/``, where the settings look in an installed site) and
the demo tournament's file (``seeds/demo-tournament.json`` to ``tournament/seeds/``, where
``seed_demo`` looks first), and turns every packaged .po file into the .mo file Django reads
(with polib, so building needs no GNU gettext). It starts from an empty build folder, so a
file deleted from the checkout never lives on in the wheel. Everything else is in
pyproject.toml."""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
# (folder in the checkout, what to copy, folder inside the package tournament/)
COPIED = [
    (ROOT / "templates", "**/*.html", "templates"),
    (ROOT / "seeds", "demo-tournament.json", "seeds"),
]


def _copied(build_lib: str) -> list[tuple[Path, Path]]:
    return [
        (source, Path(build_lib) / "tournament" / target / source.relative_to(folder))
        for folder, pattern, target in COPIED
        for source in sorted(folder.glob(pattern))
        if source.is_file()
    ]


class BuildWithTranslations(build_py):
    def run(self) -> None:
        if not self.editable_mode:
            # A file deleted from the checkout must not live on in the wheel from an earlier
            # build (pip wheel . builds in the checkout's build/lib).
            shutil.rmtree(self.build_lib, ignore_errors=True)
        super().run()
        import polib

        for source, target in _copied(self.build_lib):
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)

        for po_path in Path(self.build_lib).glob("tournament/locale/*/LC_MESSAGES/*.po"):
            polib.pofile(str(po_path)).save_as_mofile(str(po_path.with_suffix(".mo")))

    def get_outputs(self, include_bytecode=True):
        outputs = super().get_outputs(include_bytecode)
        return (
            outputs
            + [str(target) for _, target in _copied(self.build_lib)]
            + [str(Path(name).with_suffix(".mo")) for name in outputs if name.endswith(".po")]
        )


setup(cmdclass={"build_py": BuildWithTranslations})
