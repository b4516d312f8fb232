"""The wheel carries the templates and compiled translations: build_py copies the checkout's
top-level ``templates/`` into the package (``tournament/templates/``, where the settings look
in an installed site) and turns every packaged .po file into the .mo file Django reads (with
polib, so building needs no GNU gettext). Everything else is in pyproject.toml."""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

TEMPLATES = Path(__file__).resolve().parent / "templates"


def _templates() -> list[Path]:
    return sorted(path for path in TEMPLATES.rglob("*.html"))


class BuildWithTranslations(build_py):
    def run(self) -> None:
        super().run()
        import polib

        for source in _templates():
            target = (
                Path(self.build_lib) / "tournament" / "templates" / source.relative_to(TEMPLATES)
            )
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)

        for po_path in Path(self.build_lib).glob("tournament/locale/*/LC_MESSAGES/*.po"):
            polib.pofile(str(po_path)).save_as_mofile(str(po_path.with_suffix(".mo")))

    def get_outputs(self, include_bytecode=True):
        outputs = super().get_outputs(include_bytecode)
        templates = [
            str(Path(self.build_lib) / "tournament" / "templates" / path.relative_to(TEMPLATES))
            for path in _templates()
        ]
        return (
            outputs
            + templates
            + [str(Path(name).with_suffix(".mo")) for name in outputs if name.endswith(".po")]
        )


setup(cmdclass={"build_py": BuildWithTranslations})
