import { Module } from '@nestjs/common';

/** The order books: a fold over order.commands that writes order.events. */
@Module({})
export class MatchingEngineModule {}
