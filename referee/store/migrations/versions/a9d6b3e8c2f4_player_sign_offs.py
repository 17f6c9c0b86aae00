"""players' sign-offs of a finished game's final ranking: appended, each chained to the one before and naming the
record's head it was given on

Revision ID: a9d6b3e8c2f4
Revises: f7b2c8d4e6a3
Create Date: 2026-11-26 14:30:00

"""
from alembic import op
import sqlalchemy as sa


revision = 'a9d6b3e8c2f4'
down_revision = 'f7b2c8d4e6a3'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'sign_offs',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('n', sa.Integer(), nullable=False),
        sa.Column('head', sa.String(length=64), nullable=False),
        sa.Column('entries', sa.Integer(), nullable=False),
        sa.Column('player', sa.String(length=200), nullable=False),
        sa.Column('verdict', sa.String(length=10), nullable=False),
        sa.Column('reason', sa.String(length=300), server_default='', nullable=False),
        sa.Column('at', sa.DateTime(), nullable=False),
        sa.Column('hash', sa.String(length=64), nullable=False),
        sa.ForeignKeyConstraint(['game_id'], ['games.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('game_id', 'n', name='uq_sign_offs_game_n'),
    )
    with op.batch_alter_table('sign_offs', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_sign_offs_game_id'), ['game_id'], unique=False)


def downgrade():
    with op.batch_alter_table('sign_offs', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_sign_offs_game_id'))
    op.drop_table('sign_offs')
