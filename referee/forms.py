"""Forms: their shape only; the rules are the engine's."""
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from wtforms import IntegerField, PasswordField, RadioField, SelectField, StringField, TextAreaField
from wtforms.validators import DataRequired, Length, NumberRange, Optional

from flask_babel import lazy_gettext as _l

from . import rulesets
from .service import PIN_MIN


def _choices(*pairs: tuple[str, str]) -> list:
    """Choices as WTForms wants them (SelectChoice from 3.3 on; plain pairs before)."""
    try:
        from wtforms.fields.choices import SelectChoice
    except ImportError:  # pragma: no cover - older WTForms
        return list(pairs)
    return [SelectChoice(value, label) for value, label in pairs]


def named_choices(available: list[str], names) -> list[tuple[str, str]]:
    """(id, name in the device's language) for a select."""
    from .i18n import current_language

    lang = current_language()
    out = []
    for key in available:
        try:
            name = names(key)
        except rulesets.RulesetError:  # a broken file still shows, by its id; creating with it says what is wrong
            name = {}
        out.append((key, name.get(lang) or name.get("en") or key))
    return out


class NewGameForm(FlaskForm):
    title = StringField(_l("Title"), validators=[Optional(), Length(max=200)])
    ruleset = SelectField(_l("Ruleset"), default=rulesets.DEFAULT_RULESET)
    players = TextAreaField(_l("Players, one per line, in seat order"), validators=[DataRequired()])
    seating = RadioField(_l("Order of play"), choices=_choices(("roll", _l("seating roll-off")), ("fixed", _l("as listed"))),
                         default="roll")
    time_limit = IntegerField(_l("Time limit (minutes)"), validators=[Optional(), NumberRange(min=1, max=600)])
    pin = PasswordField(_l("Referee PIN"), validators=[DataRequired(), Length(min=PIN_MIN, max=64)])

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.ruleset.choices = named_choices(rulesets.available(), lambda key: rulesets.load(key).name)

    def player_names(self) -> list[str]:
        return [line.strip() for line in (self.players.data or "").splitlines() if line.strip()]


class UnlockForm(FlaskForm):
    pin = PasswordField(_l("Referee PIN"), validators=[DataRequired(), Length(max=64)])


class OrganiserForm(FlaskForm):
    password = PasswordField(_l("Organiser password"), validators=[DataRequired(), Length(max=200)])


class ImportForm(FlaskForm):
    record = FileField(_l("Game record (.jsonl)"), validators=[FileRequired()])
    pin = PasswordField(_l("Referee PIN for the imported game"), validators=[DataRequired(), Length(min=PIN_MIN, max=64)])
