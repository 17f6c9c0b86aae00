"""rulings on disputed entries (appended, hash-chained per game) and the tables' calls for a judge

Revision ID: f7b2c8d4e6a3
Revises: e4c7a9d2b5f1
Create Date: 2026-12-04 10:00:00

"""
from alembic import op
import sqlalchemy as sa


revision = 'f7b2c8d4e6a3'
down_revision = 'e4c7a9d2b5f1'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'rulings',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('n', sa.Integer(), nullable=False),
        sa.Column('entry', sa.Integer(), nullable=False),
        sa.Column('claim', sa.Text(), nullable=False),
        sa.Column('ruling', sa.Text(), nullable=False),
        sa.Column('clause', sa.String(length=200), server_default='', nullable=False),
        sa.Column('decider', sa.String(length=20), nullable=False),
        sa.Column('recorded_at', sa.DateTime(), nullable=False),
        sa.Column('hash', sa.String(length=64), nullable=False),
        sa.ForeignKeyConstraint(['game_id'], ['games.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('game_id', 'n', name='uq_rulings_game_n'),
    )
    op.create_index('ix_rulings_game_id', 'rulings', ['game_id'])
    op.create_table(
        'judge_calls',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('open_game_id', sa.Integer(), nullable=True),
        sa.Column('entry', sa.Integer(), nullable=False),
        sa.Column('called_at', sa.DateTime(), nullable=False),
        sa.Column('answered_at', sa.DateTime(), nullable=True),
        sa.Column('ruling_id', sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(['game_id'], ['games.id'], ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['ruling_id'], ['rulings.id'], ondelete='SET NULL'),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('open_game_id'),
    )
    op.create_index('ix_judge_calls_game_id', 'judge_calls', ['game_id'])


def downgrade():
    op.drop_index('ix_judge_calls_game_id', table_name='judge_calls')
    op.drop_table('judge_calls')
    op.drop_index('ix_rulings_game_id', table_name='rulings')
    op.drop_table('rulings')
