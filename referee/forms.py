"""Forms: their shape only; the rules are the engine's."""
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from wtforms import IntegerField, PasswordField, RadioField, SelectField, StringField, TextAreaField
from wtforms.validators import DataRequired, Length, NumberRange, Optional

from . import rulesets


def _choices(*pairs: tuple[str, str]) -> list:
    """Choices as WTForms wants them (SelectChoice from 3.3 on; plain pairs before)."""
    try:
        from wtforms.fields.choices import SelectChoice
    except ImportError:  # pragma: no cover - older WTForms
        return list(pairs)
    return [SelectChoice(value, label) for value, label in pairs]


class NewGameForm(FlaskForm):
    title = StringField("Title", validators=[Optional(), Length(max=200)])
    ruleset = SelectField("Ruleset", default=rulesets.DEFAULT_RULESET)
    players = TextAreaField("Players, one per line, in seat order", validators=[DataRequired()])
    seating = RadioField("Order of play", choices=_choices(("roll", "seating roll-off"), ("fixed", "as listed")),
                         default="roll")
    time_limit = IntegerField("Time limit (minutes)", validators=[Optional(), NumberRange(min=1, max=600)])
    pin = PasswordField("Referee PIN", validators=[DataRequired(), Length(min=4, max=64)])

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.ruleset.choices = rulesets.available()

    def player_names(self) -> list[str]:
        return [line.strip() for line in (self.players.data or "").splitlines() if line.strip()]


class UnlockForm(FlaskForm):
    pin = PasswordField("Referee PIN", validators=[DataRequired()])


class ImportForm(FlaskForm):
    record = FileField("Game record (.jsonl)", validators=[FileRequired()])
    pin = PasswordField("Referee PIN for the imported game", validators=[DataRequired(), Length(min=4, max=64)])
