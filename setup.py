"""The wheel carries compiled translations: build_py turns every packaged .po file into the .mo
file Django reads (with polib, so building needs no GNU gettext). Everything else is in
pyproject.toml."""

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildWithTranslations(build_py):
    def run(self) -> None:
        super().run()
        import polib

        for po_path in Path(self.build_lib).glob("tournament/locale/*/LC_MESSAGES/*.po"):
            polib.pofile(str(po_path)).save_as_mofile(str(po_path.with_suffix(".mo")))

    def get_outputs(self, include_bytecode=True):
        outputs = super().get_outputs(include_bytecode)
        return outputs + [
            str(Path(name).with_suffix(".mo")) for name in outputs if name.endswith(".po")
        ]


setup(cmdclass={"build_py": BuildWithTranslations})
