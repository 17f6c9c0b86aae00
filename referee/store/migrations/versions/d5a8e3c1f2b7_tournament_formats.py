"""tournament formats: a tournament's format (rulesets/formats/) and each round's stage in it; players between
rounds (check-in, drops, late entries, alternates), divisions and invited seeds; the director's corrections of a table's result

Revision ID: d5a8e3c1f2b7
Revises: c3e9f1a4b7d2
Create Date: 2026-11-24 07:20:00

Tournaments from before formats play "open" (rounds drawn, then a seeded final): their rounds are of its stage
"rounds", or "final" for a round seated as the final.
"""
from alembic import op
import sqlalchemy as sa


revision = 'd5a8e3c1f2b7'
down_revision = 'c3e9f1a4b7d2'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('tournaments', schema=None) as batch_op:
        batch_op.add_column(sa.Column('format', sa.String(length=80), nullable=False, server_default='open'))
    with op.batch_alter_table('rounds', schema=None) as batch_op:
        batch_op.add_column(sa.Column('stage', sa.String(length=40), nullable=True))
    with op.batch_alter_table('tournament_players', schema=None) as batch_op:
        batch_op.add_column(sa.Column('checked_in', sa.Boolean(), nullable=False, server_default=sa.true()))
        batch_op.add_column(sa.Column('alternate', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('joined_round', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('dropped_round', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('note', sa.String(length=300), nullable=False, server_default=''))
        batch_op.add_column(sa.Column('division', sa.String(length=60), nullable=False, server_default=''))
        batch_op.add_column(sa.Column('invited_stage', sa.String(length=40), nullable=True))
    op.create_table(
        'result_corrections',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('table_id', sa.Integer(), nullable=False),
        sa.Column('result', sa.JSON(), nullable=False),
        sa.Column('reason', sa.String(length=300), nullable=False),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(['table_id'], ['tables.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
    )
    with op.batch_alter_table('result_corrections', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_result_corrections_table_id'), ['table_id'], unique=False)
    rounds = sa.table('rounds', sa.column('final', sa.Boolean), sa.column('stage', sa.String))
    op.execute(rounds.update().values(stage=sa.case((rounds.c.final == sa.true(), 'final'), else_='rounds')))


def downgrade():
    with op.batch_alter_table('result_corrections', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_result_corrections_table_id'))
    op.drop_table('result_corrections')
    with op.batch_alter_table('tournament_players', schema=None) as batch_op:
        for column in ('invited_stage', 'division', 'note', 'dropped_round', 'joined_round', 'alternate', 'checked_in'):
            batch_op.drop_column(column)
    with op.batch_alter_table('rounds', schema=None) as batch_op:
        batch_op.drop_column('stage')
    with op.batch_alter_table('tournaments', schema=None) as batch_op:
        batch_op.drop_column('format')
